#include "ApiTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <memory>

using namespace llvm;

namespace snag {

namespace {

// compiler/api-table.txt, embedded at build time (see CMakeLists.txt).
constexpr char DefaultTableText[] =
#include "DefaultApiTable.inc"
    ;

[[noreturn]] void tableError(StringRef Origin, unsigned LineNo,
                             const Twine &Message) {
  report_fatal_error("snag: " + Origin + ":" + Twine(LineNo) + ": " + Message,
                     /*gen_crash_diag=*/false);
}

// The demangler's own buffers are malloc'ed.
struct FreeDeleter {
  void operator()(char *P) const { std::free(P); }
};
using DemangledString = std::unique_ptr<char, FreeDeleter>;

bool isInlineNamespace(StringRef Component) {
  return Component == "__cxx11" || Component == "__1" ||
         Component == "__debug";
}

// Removes every <...> group. The characters of an operator name such as
// `operator<` or `operator->` are kept: they are not brackets.
std::string stripTemplateArguments(StringRef Scope) {
  static constexpr StringRef OperatorKeyword = "operator";
  std::string Out;
  unsigned Depth = 0;
  for (size_t I = 0; I < Scope.size(); ++I) {
    if (Scope.substr(I).startswith(OperatorKeyword)) {
      size_t End = I + OperatorKeyword.size();
      while (End < Scope.size() && StringRef("<>=-!").contains(Scope[End]))
        ++End;
      if (Depth == 0)
        Out += Scope.slice(I, End).str();
      I = End - 1;
      continue;
    }
    char C = Scope[I];
    if (C == '<') {
      ++Depth;
    } else if (C == '>') {
      if (Depth > 0)
        --Depth;
    } else if (Depth == 0) {
      Out += C;
    }
  }
  return Out;
}

// Splits at the `::` that are not inside parentheses or braces, so that a
// function component such as `f(std::string&)` stays whole.
SmallVector<StringRef, 8> splitScope(StringRef Scope) {
  SmallVector<StringRef, 8> Components;
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Scope.size(); ++I) {
    char C = Scope[I];
    if (C == '(' || C == '{')
      ++Depth;
    else if ((C == ')' || C == '}') && Depth > 0)
      --Depth;
    else if (Depth == 0 && Scope.substr(I).startswith("::")) {
      Components.push_back(Scope.slice(Start, I));
      Start = I + 2;
      ++I;
    }
  }
  Components.push_back(Scope.substr(Start));
  return Components;
}

// "int, std::vector<int, std::allocator<int> > const&" -> its two types.
std::vector<std::string> splitParameters(StringRef List) {
  std::vector<std::string> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= List.size(); ++I) {
    char C = I < List.size() ? List[I] : ',';
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      StringRef Type = List.slice(Start, I).trim();
      if (!Type.empty())
        Out.push_back(Type.str());
      Start = I + 1;
    }
  }
  return Out;
}

} // namespace

std::string normalizeScope(StringRef Scope) {
  std::string Stripped = stripTemplateArguments(Scope);
  std::string Out;
  for (StringRef Component : splitScope(Stripped)) {
    Component = Component.trim();
    if (Component.empty() || isInlineNamespace(Component))
      continue;
    if (!Out.empty())
      Out += "::";
    Out += Component.str();
  }
  return Out;
}

bool isInsideListedClass(const ApiTable &Table, StringRef Scope) {
  std::string Prefix;
  for (StringRef Component : splitScope(Scope)) {
    if (!Prefix.empty())
      Prefix += "::";
    Prefix += Component.str();
    if (Table.hasClass(Prefix))
      return true;
  }
  return false;
}

std::optional<DemangledMember> demangleMember(StringRef MangledName) {
  ItaniumPartialDemangler Demangler;
  // partialDemangle needs a NUL-terminated string.
  std::string Name = MangledName.str();
  if (Demangler.partialDemangle(Name.c_str()) || !Demangler.isFunction())
    return std::nullopt;
  DemangledString Scope(Demangler.getFunctionDeclContextName(nullptr, nullptr));
  DemangledString Base(Demangler.getFunctionBaseName(nullptr, nullptr));
  if (!Scope || !Base)
    return std::nullopt;
  DemangledMember Result;
  Result.Class = normalizeScope(Scope.get());
  Result.Member = Base.get();
  Result.IsCtorOrDtor = Demangler.isCtorOrDtor();
  Result.Scope = Scope.get();
  DemangledString Parameters(Demangler.getFunctionParameters(nullptr, nullptr));
  StringRef List = Parameters ? StringRef(Parameters.get()) : StringRef();
  if (List.consume_front("(") && List.consume_back(")"))
    Result.Parameters = splitParameters(List);
  return Result;
}

void ApiTable::parse(StringRef Text, StringRef Origin) {
  SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (size_t Index = 0; Index < Lines.size(); ++Index) {
    unsigned LineNo = Index + 1;
    StringRef Line = Lines[Index].split('#').first;
    SmallVector<StringRef, 4> Words;
    SplitString(Line, Words); // any run of blanks separates fields
    if (Words.empty())
      continue;
    // A conversion operator's name has a blank in it: "operator bool".
    std::string Conversion;
    if (Words.size() == 4 && Words[1] == "operator") {
      Conversion = ("operator " + Words[2]).str();
      Words = {Words[0], Conversion, Words[3]};
    }
    if (Words.size() != 3)
      tableError(Origin, LineNo,
                 "expected '<class> <member> read|write|element', got '" +
                     Lines[Index].trim() + "'");
    ApiAccess Access;
    if (Words[2] == "read")
      Access = ApiAccess::Read;
    else if (Words[2] == "write")
      Access = ApiAccess::Write;
    else if (Words[2] == "element")
      Access = ApiAccess::Element;
    else
      tableError(Origin, LineNo,
                 "access must be 'read', 'write' or 'element', got '" +
                     Words[2] + "'");
    std::string Class = normalizeScope(Words[0]);
    if (Class.empty())
      tableError(Origin, LineNo, "empty class name");
    ClassEntry &Entry = Classes[Class];
    if (Words[1] == "*")
      Entry.Wildcard = Access;
    else
      Entry.Members[Words[1]] = Access;
  }
}

std::optional<ApiAccess> ApiTable::lookup(StringRef Class,
                                          StringRef Member) const {
  auto ClassIt = Classes.find(Class);
  if (ClassIt == Classes.end())
    return std::nullopt;
  const ClassEntry &Entry = ClassIt->second;
  auto MemberIt = Entry.Members.find(Member);
  if (MemberIt != Entry.Members.end())
    return MemberIt->second;
  return Entry.Wildcard;
}

ApiTable ApiTable::loadDefaultAndEnvironment() {
  ApiTable Table;
  Table.parse(DefaultTableText, "api-table.txt (built into the plugin)");
  const char *Paths = std::getenv("SNAG_API_TABLE");
  if (!Paths)
    return Table;
  SmallVector<StringRef, 4> Files;
  StringRef(Paths).split(Files, ':', -1, /*KeepEmpty=*/false);
  for (StringRef File : Files) {
    auto Buffer = MemoryBuffer::getFile(File, /*IsText=*/true);
    if (!Buffer)
      report_fatal_error("snag: SNAG_API_TABLE: cannot read '" + File +
                             "': " + Buffer.getError().message(),
                         /*gen_crash_diag=*/false);
    Table.parse((*Buffer)->getBuffer(), File);
  }
  return Table;
}

} // namespace snag
