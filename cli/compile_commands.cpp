#include "compile_commands.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace snag::cli {

namespace fs = std::filesystem;

std::optional<std::vector<std::string>> split_shell_words(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      size_t end = command.find('\'', i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      word.append(command.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= command.size()) return std::nullopt;
        char d = command[i];
        if (d == '"') break;
        // Inside double quotes a backslash escapes only these.
        if (d == '\\' && i + 1 < command.size() &&
            std::string_view("\"\\$`\n").find(command[i + 1]) != std::string_view::npos) {
          d = command[++i];
        }
        word.push_back(d);
      }
    } else if (c == '\\') {
      if (i + 1 < command.size()) word.push_back(command[++i]);
    } else {
      word.push_back(c);
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::vector<std::string> meaningful_flags(const std::vector<std::string> &arguments,
                                          const std::string &source) {
  // Flags that take the next word as their value and are dropped with it.
  static const char *const kDroppedWithValue[] = {"-o", "-MF", "-MT", "-MQ"};
  // Also the modes that would stop clang before it writes bitcode.
  static const char *const kDropped[] = {"-c", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG", "--",
                                         "-fsyntax-only", "-E", "-S"};
  static const char *const kDroppedPrefixes[] = {"-fsanitize", "-fno-sanitize", "-fsnag-",
                                                 "-fpass-plugin=", "-Werror", "-MF", "-MT", "-MQ"};
  std::string source_name = fs::path(source).filename().string();
  std::vector<std::string> kept;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string &arg = arguments[i];
    // A precompiled header was built with the project's flags, not ours, and
    // clang refuses it; the header itself is still included (CMake passes
    // it with -include too), so the code means the same.
    if (arg == "-include-pch") {
      ++i;
      continue;
    }
    if (arg == "-Xclang" && i + 3 < arguments.size() && arguments[i + 1] == "-include-pch" &&
        arguments[i + 2] == "-Xclang") {
      i += 3;
      continue;
    }
    bool skip_next = false, drop = false;
    for (const char *flag : kDroppedWithValue)
      if (arg == flag) skip_next = drop = true;
    for (const char *flag : kDropped)
      if (arg == flag) drop = true;
    for (const char *prefix : kDroppedPrefixes)
      if (arg.rfind(prefix, 0) == 0) drop = true;
    if (arg.size() > 2 && arg.rfind("-o", 0) == 0) drop = true;  // -ofile
    // The source itself, however the database spelled it.
    if (!arg.empty() && arg[0] != '-' &&
        (arg == source || fs::path(arg).filename().string() == source_name)) {
      drop = true;
    }
    if (skip_next) ++i;
    if (!drop) kept.push_back(arg);
  }
  return kept;
}

std::string target_of_output(const std::string &output) {
  static const std::regex cmake("(^|/)CMakeFiles/([^/]+)\\.dir/");
  static const std::regex meson("(^|/)([^/]+)\\.p/[^/]+$");
  std::smatch match;
  if (std::regex_search(output, match, cmake)) return match[2];
  if (std::regex_search(output, match, meson)) return match[2];
  // One command that compiles several sources straight into a program
  // (`g++ a.cc b.cc -o tool`, as Bear records it): the program is the target.
  std::string extension = std::filesystem::path(output).extension().string();
  if (!output.empty() && output != "-" && output != "/dev/null" && extension != ".o" &&
      extension != ".obj" && extension != ".pch" && extension != ".gch" && extension != ".d")
    return output;
  return {};
}

namespace {

std::string output_of(const std::vector<std::string> &arguments) {
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == "-o" && i + 1 < arguments.size()) return arguments[i + 1];
    if (arguments[i].size() > 2 && arguments[i].rfind("-o", 0) == 0) return arguments[i].substr(2);
  }
  return {};
}

const nlohmann::json &string_member(const nlohmann::json &entry, const char *key, const std::string &where) {
  auto found = entry.find(key);
  if (found == entry.end()) throw CompileDatabaseError(fmt::format("{}: missing \"{}\"", where, key));
  if (!found->is_string()) throw CompileDatabaseError(fmt::format("{}: \"{}\" is not a string", where, key));
  return *found;
}

}  // namespace

std::vector<CompileCommand> parse_compile_commands(std::string_view text, const std::string &name) {
  nlohmann::json database = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (database.is_discarded()) throw CompileDatabaseError(name + " is not valid JSON");
  if (!database.is_array()) throw CompileDatabaseError(name + " is not a JSON array of compile commands");

  std::vector<CompileCommand> commands;
  for (size_t index = 0; index < database.size(); ++index) {
    const nlohmann::json &entry = database[index];
    std::string where = fmt::format("{}: entry {}", name, index + 1);
    if (!entry.is_object()) throw CompileDatabaseError(where + " is not an object");
    CompileCommand command;
    command.directory = string_member(entry, "directory", where).get<std::string>();
    std::string file = string_member(entry, "file", where).get<std::string>();
    if (file.empty()) throw CompileDatabaseError(where + ": \"file\" is empty");

    std::vector<std::string> arguments;
    if (auto found = entry.find("arguments"); found != entry.end()) {
      if (!found->is_array()) throw CompileDatabaseError(where + ": \"arguments\" is not an array");
      for (const nlohmann::json &word : *found) {
        if (!word.is_string()) throw CompileDatabaseError(where + ": \"arguments\" holds a non-string");
        arguments.push_back(word.get<std::string>());
      }
    } else if (entry.contains("command")) {
      std::optional<std::vector<std::string>> words =
          split_shell_words(string_member(entry, "command", where).get<std::string>());
      if (!words) throw CompileDatabaseError(where + ": \"command\" has an unterminated quote");
      arguments = std::move(*words);
    } else {
      throw CompileDatabaseError(where + ": neither \"arguments\" nor \"command\"");
    }
    if (arguments.empty()) throw CompileDatabaseError(where + ": the command is empty");

    std::string output;
    if (auto found = entry.find("output"); found != entry.end() && found->is_string())
      output = found->get<std::string>();
    if (output.empty()) output = output_of(arguments);
    command.target = target_of_output(output);
    arguments.erase(arguments.begin());  // the compiler: snag check uses clang 14
    command.flags = meaningful_flags(arguments, file);
    fs::path path(file);
    command.file = path.is_absolute() ? file : (fs::path(command.directory) / path).lexically_normal().string();
    commands.push_back(std::move(command));
  }
  return commands;
}

std::vector<CompileCommand> read_compile_commands(const std::string &build_dir) {
  std::error_code error;
  fs::path path = build_dir;
  if (fs::is_directory(path, error) || path.extension() != ".json") path /= "compile_commands.json";
  if (!fs::exists(path, error)) {
    throw CompileDatabaseError(fmt::format(
        "no {} (configure the build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or run it under bear)",
        path.string()));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CompileDatabaseError("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse_compile_commands(text.str(), path.string());
}

}  // namespace snag::cli
