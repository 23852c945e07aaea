#include "TypeNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

using namespace llvm;

namespace snag {

namespace {

// Template arguments that are the library's defaults when they come last.
constexpr StringLiteral DefaultArgumentTemplates[] = {
    "std::allocator", "std::less",         "std::hash",
    "std::equal_to",  "std::char_traits",  "std::default_delete"};

// The character types behind the std::basic_string aliases.
struct StringAlias {
  StringLiteral Char;
  StringLiteral Alias;
};
constexpr StringAlias StringAliases[] = {{"char", "std::string"},
                                         {"wchar_t", "std::wstring"},
                                         {"char8_t", "std::u8string"},
                                         {"char16_t", "std::u16string"},
                                         {"char32_t", "std::u32string"}};

std::string withoutInlineNamespaces(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    bool Matched = false;
    for (StringRef Namespace : {"__cxx11::", "__1::"}) {
      if (Text.substr(I).startswith(Namespace)) {
        I += Namespace.size();
        Matched = true;
        break;
      }
    }
    if (!Matched)
      Out += Text[I++];
  }
  return Out;
}

// The index of the '>' closing the '<' at `Open`, or npos.
size_t closingAngle(StringRef Text, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']') {
      if (--Depth == 0)
        return C == '>' ? I : StringRef::npos;
    }
  }
  return StringRef::npos;
}

// Splits a template argument list (without its brackets) at the commas
// that are not nested.
SmallVector<StringRef, 4> splitArguments(StringRef List) {
  SmallVector<StringRef, 4> Arguments;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < List.size(); ++I) {
    char C = List[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Arguments.push_back(List.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Arguments.push_back(List.substr(Start).trim());
  return Arguments;
}

// The name before an argument's own template arguments: "std::less" for
// "std::less<int>".
StringRef templateOf(StringRef Argument) {
  return Argument.substr(0, Argument.find('<')).trim();
}

std::string display(StringRef Text);

// "8ul" -> "8": the demangler spells integer arguments with their suffix.
StringRef withoutIntegerSuffix(StringRef Argument) {
  StringRef Digits = Argument;
  Digits.consume_front("-");
  size_t End = Digits.find_first_not_of("0123456789");
  if (End == 0 || End == StringRef::npos)
    return Argument;
  if (Digits.substr(End).find_first_not_of("ulUL") != StringRef::npos)
    return Argument;
  return Argument.drop_back(Digits.size() - End);
}

// `Head<Arguments...>` with its defaults dropped and its arguments displayed.
std::string displayTemplate(StringRef Head, SmallVector<StringRef, 4> Arguments) {
  // libstdc++'s implementation bases of the smart pointers.
  if (Head == "std::__shared_ptr" || Head == "std::__shared_ptr_access" ||
      Head == "std::__weak_ptr") {
    Head = Head == "std::__weak_ptr" ? "std::weak_ptr" : "std::shared_ptr";
    Arguments.resize(1);
  }
  auto DropLastIf = [&](auto Predicate) {
    if (Arguments.size() > 1 && Predicate(templateOf(Arguments.back())))
      Arguments.pop_back();
  };
  for (;;) {
    size_t Before = Arguments.size();
    DropLastIf([](StringRef T) {
      return is_contained(DefaultArgumentTemplates, T);
    });
    if (Arguments.size() == Before)
      break;
  }
  if (Head == "std::queue" || Head == "std::stack")
    DropLastIf([](StringRef T) { return T == "std::deque"; });
  if (Head == "std::priority_queue")
    DropLastIf([](StringRef T) { return T == "std::vector"; });
  if (Head == "std::basic_string" && Arguments.size() == 1) {
    for (const StringAlias &A : StringAliases)
      if (Arguments.front() == A.Char)
        return A.Alias.str();
  }
  if (Head == "std::basic_string_view" && Arguments.size() == 1 &&
      Arguments.front() == "char")
    return "std::string_view";

  std::string Out = Head.str() + "<";
  for (size_t I = 0; I < Arguments.size(); ++I) {
    if (I)
      Out += ", ";
    Out += display(withoutIntegerSuffix(Arguments[I]));
  }
  Out += ">"; // "vector<vector<int>>", not "vector<vector<int> >"
  return Out;
}

std::string display(StringRef Text) {
  size_t Open = Text.find('<');
  if (Open == StringRef::npos)
    return Text.str();
  size_t Close = closingAngle(Text, Open);
  if (Close == StringRef::npos)
    return Text.str(); // not a template argument list we understand
  StringRef Head = Text.substr(0, Open).rtrim();
  std::string Out = displayTemplate(
      Head, splitArguments(Text.slice(Open + 1, Close)));
  // What follows the arguments: "::iterator", " const", "*", or more
  // template arguments of a nested name.
  return Out + display(Text.substr(Close + 1));
}

} // namespace

std::string displayTypeName(StringRef DemangledType) {
  return display(withoutInlineNamespaces(DemangledType.trim()));
}

} // namespace snag
