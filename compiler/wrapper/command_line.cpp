#include "command_line.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace snag::wrapper {

namespace {

// The kinds the pass plugin knows (compiler/plugin/Options.cpp). Checked here
// so a typo is one line naming the option, not a compiler crash report.
void check_instrument_list(const std::string &list) {
  static const char *const kKinds[] = {"memory", "atomics", "memops", "functions", "api", "guard", "all", "none"};
  const std::string allowed = "memory, atomics, memops, functions, api, guard, all or none";
  if (list.empty()) throw std::runtime_error("-fsnag-instrument= needs a list of " + allowed);
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string word = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool known = false;
    for (const char *kind : kKinds) known = known || word == kind;
    if (!known)
      throw std::runtime_error("-fsnag-instrument=" + list + ": unknown kind '" + word + "' (allowed: " +
                               allowed + ")");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

bool starts_with(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

// Options of clang's that take their value as the next argument, so that the
// value is not mistaken for an input file.
bool takes_separate_value(const std::string &a) {
  static const char *const kOptions[] = {
      "-o", "-x", "-I", "-L", "-l", "-D", "-U", "-include", "-isystem", "-idirafter",
      "-iquote", "-MF", "-MT", "-MQ", "-Xlinker", "-Xclang", "-Xassembler",
      "-Xpreprocessor", "-mllvm", "-target", "--target", "-arch", "-imacros", "-isysroot",
      "--sysroot", "-T", "-z", "-u", "-e", "-aux-info", "-dumpbase", "-dumpdir"};
  for (const char *o : kOptions)
    if (a == o) return true;
  return false;
}

// -g, -g0..-g3, -ggdb*, -gdwarf*, -gline-tables-only, -gfull and similar
// choose how much debug info to emit; modifiers such as -gz, -gsplit-dwarf or
// -gno-column-info do not, so the wrapper still adds -g with them.
bool is_debug_level(const std::string &a) {
  static const char *const kLevels[] = {"-g", "-g0", "-g1", "-g2", "-g3", "-gline-tables-only",
                                        "-gline-directives-only", "-gfull", "-gused"};
  for (const char *level : kLevels)
    if (a == level) return true;
  return starts_with(a, "-ggdb") || starts_with(a, "-gdwarf") || starts_with(a, "-gcodeview");
}

void classify(const std::vector<std::string> &args, CommandLine &cl, int depth) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (!a.empty() && a[0] == '@' && depth < 8) {
      std::ifstream in(a.substr(1));
      if (!in) throw std::runtime_error("cannot read response file " + a.substr(1));
      std::stringstream text;
      text << in.rdbuf();
      classify(split_response_file(text.str()), cl, depth + 1);
      continue;
    }
    if (takes_separate_value(a)) {
      ++i;
      continue;
    }
    if (a == "-c" || a == "-S" || a == "-E" || a == "-fsyntax-only" || a == "-M" || a == "-MM")
      cl.links = false;
    else if (a == "-shared" || a == "--shared")
      cl.shared = true;
    else if (a == "-r" || a == "--relocatable")
      cl.partial_link = true;
    else if (a == "-static" || a == "--static" || a == "-static-pie")
      cl.is_static = true;
    else if (is_debug_level(a))
      cl.has_debug_flag = true;
    else if (a == "--version" || a == "-###" || a == "--help" || starts_with(a, "-print-") ||
             starts_with(a, "-dump"))
      cl.info_only = true;
    else if (a == "-" || (!a.empty() && a[0] != '-'))
      cl.has_inputs = true;
  }
}

}  // namespace

std::vector<std::string> split_response_file(const std::string &text) {
  std::vector<std::string> out;
  std::string current;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      current += text[++i];
      in_word = true;
    } else if (quote) {
      if (c == quote) quote = 0;
      else current += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) out.push_back(current);
      current.clear();
      in_word = false;
    } else {
      current += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(current);
  return out;
}

CommandLine parse_command_line(const std::vector<std::string> &args) {
  CommandLine cl;
  std::vector<std::string> passed;
  for (const std::string &a : args) {
    if (starts_with(a, "-fsnag-api-table=")) {
      std::string file = a.substr(17);
      if (file.empty()) throw std::runtime_error("-fsnag-api-table= needs a file name");
      cl.api_tables.push_back(file);
    } else if (starts_with(a, "-fsnag-instrument=")) {
      cl.instrument = a.substr(18);
      check_instrument_list(cl.instrument);
    } else if (starts_with(a, "-fsnag-invariants=")) {
      cl.invariants = a.substr(18);
      if (cl.invariants.empty()) throw std::runtime_error("-fsnag-invariants= needs a file name");
    } else if (starts_with(a, "-fsnag-bias=")) {
      std::string n = a.substr(12);
      char *end = nullptr;
      unsigned long percent = std::strtoul(n.c_str(), &end, 10);
      if (n.empty() || *end != '\0' || percent < 1 || percent > 100)
        throw std::runtime_error("-fsnag-bias=" + n + ": expected a percentage from 1 to 100");
      cl.bias = static_cast<int>(percent);
    } else if (starts_with(a, "-fsanitize-ignorelist=") || starts_with(a, "-fsanitize-blacklist=")) {
      // ThreadSanitizer's ignore list means the same to snag (the plugin's
      // IgnoreList.h); clang without -fsanitize would ignore it.
      std::string file = a.substr(a.find('=') + 1);
      if (file.empty()) throw std::runtime_error(a + " needs a file name");
      cl.ignore_lists.push_back(file);
    } else if (a == "-fsnag-verbose") {
      cl.verbose = true;
    } else if (starts_with(a, "-fsnag")) {
      throw std::runtime_error("unknown snag option " + a +
                               " (known: -fsnag-instrument=, -fsnag-api-table=, -fsnag-invariants=, -fsnag-bias=, "
                               "-fsnag-verbose)");
    } else {
      passed.push_back(a);
    }
  }
  bool guard_kind = (',' + cl.instrument + ',').find(",guard,") != std::string::npos;
  if (guard_kind && cl.invariants.empty())
    throw std::runtime_error("-fsnag-instrument=guard needs -fsnag-invariants=FILE (the file 'snag learn' wrote)");
  if (!cl.invariants.empty() && !guard_kind)
    throw std::runtime_error("-fsnag-invariants= is for -fsnag-instrument=guard builds");
  if (cl.bias && !guard_kind) throw std::runtime_error("-fsnag-bias= is for -fsnag-instrument=guard builds");
  classify(passed, cl, 0);
  if (!cl.has_inputs) cl.links = false;
  cl.clang_args = std::move(passed);
  return cl;
}

}  // namespace snag::wrapper
