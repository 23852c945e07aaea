// The table of thread-unsafe classes whose member calls are marked with
// __snag_api_begin/__snag_api_end, and the demangling that matches a called
// function against it. The format is documented in compiler/api-table.txt.
#ifndef SNAG_PLUGIN_API_TABLE_H
#define SNAG_PLUGIN_API_TABLE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace snag {

// How a member call uses the object. Element: the call only reads the
// container, and loads and stores through the reference it returns read and
// write that element (std::array's operator[]).
enum class ApiAccess { Read, Write, Element };

class ApiTable {
public:
  // The default table compiled into the plugin plus every file named in
  // SNAG_API_TABLE (colon-separated). Fatal error on an unreadable file or a
  // malformed line.
  static ApiTable loadDefaultAndEnvironment();

  // Adds the entries of `Text`; `Origin` names it in error messages. Entries
  // read later override earlier ones for the same class and member.
  void parse(llvm::StringRef Text, llvm::StringRef Origin);

  // The access of `Member` of the (normalized) class, if the table lists it
  // by name or through the class's `*` entry.
  std::optional<ApiAccess> lookup(llvm::StringRef Class,
                                  llvm::StringRef Member) const;

  bool hasClass(llvm::StringRef Class) const { return Classes.count(Class); }

private:
  struct ClassEntry {
    llvm::StringMap<ApiAccess> Members;
    std::optional<ApiAccess> Wildcard;
  };
  llvm::StringMap<ClassEntry> Classes;
};

// A function symbol demangled into the pieces the table is keyed on.
struct DemangledMember {
  std::string Class;  // normalized enclosing scope, e.g. "std::basic_string"
  std::string Member; // base name without template arguments, e.g. "append"
  bool IsCtorOrDtor = false;
  // The enclosing scope as the demangler prints it, with template
  // arguments: "std::vector<int, std::allocator<int> >".
  std::string Scope;
  // The parameter types, e.g. {"std::vector<int, std::allocator<int> > const&"}.
  std::vector<std::string> Parameters;
};

// Splits an Itanium-mangled function name; nullopt for anything that is not
// a mangled function name (C functions, data, ...).
std::optional<DemangledMember> demangleMember(llvm::StringRef MangledName);

// "std::__cxx11::basic_string<char, ...>" -> "std::basic_string": drops
// template arguments and the inline namespaces __cxx11, __1 and __debug.
std::string normalizeScope(llvm::StringRef Scope);

// True when `Scope` (a normalized scope) is a listed class or lies inside
// one: a member function's local classes and lambdas, nested classes.
bool isInsideListedClass(const ApiTable &Table, llvm::StringRef Scope);

} // namespace snag

#endif
