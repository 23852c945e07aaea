#include "output_compare.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "diagnostics.h"

namespace snag::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<std::string> contents_of(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Line `number` (from 1) of `text`, as the runtime quotes it: control
// characters as spaces, at most 72 bytes; nullopt when the text ends before it.
std::optional<std::string> quoted_line(const std::string &text, uint64_t number) {
  size_t start = 0;
  for (uint64_t line = 1; line < number; ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) return std::nullopt;
    start = end + 1;
  }
  if (start >= text.size()) return std::nullopt;
  std::string line = text.substr(start, std::min<size_t>(text.find('\n', start) - start, 72));
  for (char &c : line)
    if (static_cast<unsigned char>(c) < 32) c = ' ';
  return line;
}

std::string quote(const std::optional<std::string> &line) {
  return line ? "\"" + *line + "\"" : "nothing (the output ends before it)";
}

std::string text(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

void check_compare_files(const std::vector<std::string> &files) {
  for (const std::string &file : files) {
    std::error_code error;
    fs::path path(file);
    if (file.empty()) throw UsageError("--compare-file: an empty file name");
    if (fs::is_directory(path, error))
      throw UsageError("--compare-file " + file + ": a directory, not a file the program writes");
    fs::path parent = path.parent_path();
    if (!parent.empty() && !fs::is_directory(parent, error))
      throw UsageError("--compare-file " + file + ": no such directory " + parent.string());
    if (!fs::exists(path, error)) continue;  // the program makes it
    if (!fs::is_regular_file(path, error))
      throw UsageError("--compare-file " + file + ": not a regular file");
    if (access(file.c_str(), R_OK) != 0)
      throw UsageError("--compare-file " + file + ": cannot read it: " + std::strerror(errno));
  }
}

bool names_argument(const std::vector<std::string> &command, const std::string &file) {
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string &arg = command[i];
    if (arg == file || (arg.size() > file.size() && arg.ends_with(file) &&
                        arg[arg.size() - file.size() - 1] == '='))
      return true;
  }
  return false;
}

std::vector<std::string> with_output_paths(const std::vector<std::string> &command,
                                           const std::vector<std::string> &files,
                                           const std::vector<std::string> &paths) {
  std::vector<std::string> out = command;
  for (size_t i = 1; i < out.size(); ++i) {
    for (size_t f = 0; f < files.size(); ++f) {
      std::string &arg = out[i];
      const std::string &file = files[f];
      if (arg == file) {
        arg = paths[f];
        break;
      }
      if (arg.size() > file.size() && arg.ends_with(file) &&
          arg[arg.size() - file.size() - 1] == '=') {
        arg = arg.substr(0, arg.size() - file.size()) + paths[f];
        break;
      }
    }
  }
  return out;
}

OutputPlaces::OutputPlaces(const std::vector<std::string> &files,
                           const std::vector<std::string> &command) {
  bool any_moved = false;
  for (const std::string &file : files) any_moved |= names_argument(command, file);
  if (any_moved) {
    std::string pattern = (fs::path(temp_directory()) / "snag-outputs-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      throw UsageError("cannot make a directory for the compared files in " + temp_directory() +
                       ": " + std::strerror(errno));
    directory_ = pattern;
  }
  for (size_t f = 0; f < files.size(); ++f) {
    // Numbered, so that two files of the same base name stay apart.
    paths_.push_back(names_argument(command, files[f])
                         ? (directory_ / fmt::format("{}-{}", f, fs::path(files[f]).filename().string()))
                               .string()
                         : files[f]);
  }
  command_ = with_output_paths(command, files, paths_);
  if (!files.empty()) {
    list_.emplace("outputs", ".txt");
    std::ofstream out(list_->path(), std::ios::binary | std::ios::trunc);
    for (size_t f = 0; f < files.size(); ++f) out << paths_[f] << '\t' << files[f] << '\n';
    if (!out.flush()) throw UsageError("cannot write " + list_->path());
  }
}

OutputPlaces::~OutputPlaces() {
  std::error_code error;
  if (!directory_.empty()) fs::remove_all(directory_, error);
}

std::string OutputPlaces::option_value() const { return list_ ? list_->path() : "stdout"; }

std::optional<ExpectedOutput> expected_output_from(const json &record) {
  if (!record.is_object()) return std::nullopt;
  ExpectedOutput o;
  o.stdout_fnv1a64 = text(record, "stdout");
  if (auto files = record.find("files"); files != record.end() && files->is_array()) {
    for (const json &file : *files)
      if (file.is_object()) o.files.push_back({text(file, "name"), text(file, "fnv1a64")});
  }
  o.where = text(record, "where");
  if (auto line = record.find("line"); line != record.end() && line->is_number_unsigned())
    o.line = line->get<uint64_t>();
  o.reference_line = text(record, "reference");
  o.schedule_line = text(record, "schedule");
  if (o.stdout_fnv1a64.size() != 16) return std::nullopt;
  return o;
}

std::optional<report::Finding> output_mismatch(const ExpectedOutput &expected,
                                               const std::string &stdout_path,
                                               const std::vector<std::string> &paths) {
  std::string message;
  std::string where;
  std::optional<std::string> line;
  std::string stdout_text = contents_of(stdout_path).value_or("");
  if (fnv1a64_hex(stdout_text) != expected.stdout_fnv1a64) {
    where = "stdout";
    if (expected.where == "stdout" && expected.line) line = quoted_line(stdout_text, expected.line);
    message = expected.where == "stdout" && expected.line
                  ? fmt::format("stdout line {} is {}; schedule 0 printed \"{}\"", expected.line,
                                quote(line), expected.reference_line)
                  : "stdout differs from what schedule 0 printed";
  }
  for (size_t f = 0; message.empty() && f < expected.files.size() && f < paths.size(); ++f) {
    const ExpectedOutput::File &file = expected.files[f];
    std::optional<std::string> written = contents_of(paths[f]);
    std::string hash = written ? fnv1a64_hex(*written) : "";
    if (hash == file.fnv1a64) continue;
    where = file.name;
    if (!written || file.fnv1a64.empty()) {
      message = file.name + (written ? " was written, but not by schedule 0"
                                     : " was not written; schedule 0 wrote it");
    } else if (expected.where == file.name && expected.line) {
      line = quoted_line(*written, expected.line);
      message = fmt::format("{} line {} is {}; schedule 0 wrote \"{}\"", file.name, expected.line,
                            quote(line), expected.reference_line);
    } else {
      message = file.name + " differs from what schedule 0 wrote";
    }
  }
  if (message.empty()) return std::nullopt;
  report::Finding f;
  f.engine = "explore";
  f.kind = "output-mismatch";
  f.message = "output differs from schedule 0's: " + message;
  report::Side side;
  side.description = f.message;
  f.sides.push_back(side);
  f.details = json::object({{"output", where}});
  if (line || expected.where == where) {
    f.details["output_line"] = expected.line;
    f.details["reference_line"] = expected.reference_line;
    f.details["schedule_line"] = line.value_or("");
  }
  return f;
}

}  // namespace snag::cli
