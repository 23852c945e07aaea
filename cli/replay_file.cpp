#include "replay_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <regex>

#include <fmt/format.h>

#include "decisions.h"
#include "diagnostics.h"

namespace snag::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t fnv1a64_update(uint64_t hash, std::string_view bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= kFnvPrime;
  }
  return hash;
}

bool is_hex_digest(const std::string &s) {
  return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Typed access to the fields of a replay file by dotted name ("bug.kind"),
// with a one-line UsageError for a missing or mistyped field.
class Fields {
 public:
  Fields(const json &root, const std::string &file) : root_(root), file_(file) {}

  std::string string(const std::string &name) const {
    const json &value = at(name);
    if (!value.is_string()) mistyped(name, "a string");
    return value.get<std::string>();
  }
  uint64_t number(const std::string &name) const {
    const json &value = at(name);
    if (!value.is_number_unsigned()) mistyped(name, "a non-negative integer");
    return value.get<uint64_t>();
  }
  bool boolean(const std::string &name) const {
    const json &value = at(name);
    if (!value.is_boolean()) mistyped(name, "true or false");
    return value.get<bool>();
  }
  std::vector<std::string> strings(const std::string &name) const {
    const json &value = at(name);
    if (!value.is_array()) mistyped(name, "an array of strings");
    std::vector<std::string> out;
    for (const json &item : value) {
      if (!item.is_string()) mistyped(name, "an array of strings");
      out.push_back(item.get<std::string>());
    }
    return out;
  }

  bool has(const std::string &name) const {
    const json *value = &root_;
    for (size_t start = 0;;) {
      size_t dot = name.find('.', start);
      std::string key =
          name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!value->is_object() || !value->contains(key)) return false;
      value = &(*value)[key];
      if (dot == std::string::npos) return true;
      start = dot + 1;
    }
  }

  [[noreturn]] void mistyped(const std::string &name, const char *expected) const {
    throw UsageError(fmt::format("{}: field \"{}\" should be {}", file_, name, expected));
  }

 private:
  const json &at(const std::string &name) const {
    const json *value = &root_;
    std::string prefix;
    size_t start = 0;
    while (true) {
      size_t dot = name.find('.', start);
      std::string key =
          name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!value->is_object()) mistyped(prefix, "an object");
      auto it = value->find(key);
      if (it == value->end())
        throw UsageError(fmt::format("{}: missing field \"{}\"", file_, name));
      value = &*it;
      if (dot == std::string::npos) return *value;
      prefix = name.substr(0, dot);
      start = dot + 1;
    }
  }

  const json &root_;
  const std::string &file_;
};

}  // namespace

// "sync", "accesses" or "vars/K1,K2,..." with hex K, optionally followed by
// "+sites/S1,S2,..." with hex S, the racy access sites, and "+addrs/A1,..."
// the racy addresses (records.cpp in the explore engine writes them).
bool is_scheduling_points(const std::string &points) {
  static const std::regex kForm(
      "(sync|accesses|vars/[0-9a-f]{1,16}(,[0-9a-f]{1,16})*)(\\+sites/[0-9a-f]{1,16}(,[0-9a-f]{1,16})*)?"
      "(\\+addrs/[0-9a-f]{1,16}(,[0-9a-f]{1,16})*)?");
  return std::regex_match(points, kForm);
}

std::string default_points(bool preempt_on_access) {
  return preempt_on_access ? "accesses" : "sync";
}

std::string fnv1a64_hex(std::string_view bytes) {
  return fmt::format("{:016x}", fnv1a64_update(kFnvOffsetBasis, bytes));
}

ProgramIdentity identify_program(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  uint64_t hash = kFnvOffsetBasis;
  uint64_t size = 0;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    auto got = static_cast<size_t>(in.gcount());
    hash = fnv1a64_update(hash, std::string_view(buffer, got));
    size += got;
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return ProgramIdentity{fs::absolute(path).lexically_normal().string(), size,
                         fmt::format("{:016x}", hash)};
}

nlohmann::ordered_json to_json(const ReplayFile &r) {
  // The documented order, so that people reading the file find it familiar.
  using ordered = nlohmann::ordered_json;
  ordered document{
      {"snag_replay", kReplayFormatVersion},
      {"program",
       ordered{{"path", r.program.path}, {"size", r.program.size}, {"fnv1a64", r.program.fnv1a64}}},
      {"arguments", r.arguments},
      {"strategy", r.strategy},
      {"seed", r.seed},
      {"schedule", r.schedule},
      {"options", ordered{{"preempt_on_access", r.preempt_on_access},
                          {"with_race", r.with_race},
                          {"max_steps", r.max_steps},
                          {"points", r.points}}},
      {"bug",
       ordered{{"kind", r.bug.kind}, {"message", r.bug.message}, {"location", r.bug.location}}},
      {"preemptions", r.preemptions},
      {"decisions", r.decisions},
  };
  if (r.eager_threads) document["options"]["eager_threads"] = true;
  if (r.output) {
    const ExpectedOutput &o = *r.output;
    ordered files = ordered::array();
    for (const ExpectedOutput::File &f : o.files)
      files.push_back(ordered{{"name", f.name},
                              {"fnv1a64", f.fnv1a64.empty() ? ordered(nullptr) : ordered(f.fnv1a64)}});
    document["output"] = ordered{{"stdout_fnv1a64", o.stdout_fnv1a64},
                                 {"files", files},
                                 {"where", o.where},
                                 {"line", o.line},
                                 {"reference_line", o.reference_line},
                                 {"schedule_line", o.schedule_line}};
  }
  return document;
}

void write_replay_file(const std::string &path, const ReplayFile &replay) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (out) out << to_json(replay).dump(2, ' ', false, json::error_handler_t::replace) << '\n';
  out.close();
  if (!out)
    throw std::runtime_error("cannot write replay file " + path + ": " + std::strerror(errno));
}

ReplayFile replay_file_from_json(const json &document, const std::string &name) {
  if (!document.is_object()) throw UsageError(name + " is not a replay file (not a JSON object)");
  if (!document.contains("snag_replay")) {
    throw UsageError(name + " is not a replay file (no \"snag_replay\" field)");
  }
  const json &version = document["snag_replay"];
  if (!version.is_number_integer()) {
    throw UsageError(name + ": field \"snag_replay\" should be a version number");
  }
  if (version.get<int64_t>() != kReplayFormatVersion) {
    throw UsageError(fmt::format("{} is a version {} replay file; this snag reads version {}", name,
                                 version.get<int64_t>(), kReplayFormatVersion));
  }

  Fields f(document, name);
  ReplayFile r;
  r.program.path = f.string("program.path");
  r.program.size = f.number("program.size");
  r.program.fnv1a64 = f.string("program.fnv1a64");
  if (!is_hex_digest(r.program.fnv1a64)) f.mistyped("program.fnv1a64", "16 lowercase hex digits");
  r.arguments = f.strings("arguments");
  r.strategy = f.string("strategy");
  r.seed = f.number("seed");
  r.schedule = f.number("schedule");
  r.preempt_on_access = f.boolean("options.preempt_on_access");
  r.with_race = f.boolean("options.with_race");
  r.max_steps = f.number("options.max_steps");
  r.eager_threads = f.has("options.eager_threads") && f.boolean("options.eager_threads");
  r.points =
      f.has("options.points") ? f.string("options.points") : default_points(r.preempt_on_access);
  // The value reaches SNAG_OPTIONS: only the forms the runtime writes, so a
  // crafted file cannot smuggle in other keys.
  if (!is_scheduling_points(r.points))
    f.mistyped("options.points",
                "sync, accesses or vars/ and comma-separated hex variables, then maybe +sites/ "
                "and +addrs/ with hex sites and addresses");
  r.bug.kind = f.string("bug.kind");
  r.bug.message = f.string("bug.message");
  r.bug.location = f.string("bug.location");
  r.preemptions = f.number("preemptions");
  r.decisions = f.string("decisions");
  if (f.has("output")) {
    ExpectedOutput o;
    o.stdout_fnv1a64 = f.string("output.stdout_fnv1a64");
    if (!is_hex_digest(o.stdout_fnv1a64)) f.mistyped("output.stdout_fnv1a64", "16 lowercase hex digits");
    const json &files = document["output"].contains("files") ? document["output"]["files"] : json();
    if (!files.is_array()) f.mistyped("output.files", "an array of {\"name\", \"fnv1a64\"} objects");
    for (const json &file : files) {
      auto name = file.is_object() ? file.find("name") : file.end();
      auto hash = file.is_object() ? file.find("fnv1a64") : file.end();
      if (!file.is_object() || name == file.end() || !name->is_string() || hash == file.end() ||
          !(hash->is_null() || (hash->is_string() && is_hex_digest(hash->get<std::string>()))))
        f.mistyped("output.files", "an array of {\"name\", \"fnv1a64\"} objects");
      o.files.push_back({name->get<std::string>(), hash->is_null() ? "" : hash->get<std::string>()});
    }
    o.where = f.string("output.where");
    o.line = f.number("output.line");
    o.reference_line = f.string("output.reference_line");
    o.schedule_line = f.string("output.schedule_line");
    r.output = o;
  }
  if (std::optional<std::string> bad = first_malformed_decision(r.decisions)) {
    throw UsageError(fmt::format(
        "{}: malformed decision '{}' in \"decisions\" (expected T or TpU, such as 2 or 2p1)", name,
        *bad));
  }
  return r;
}

void check_recorded_program(const ReplayFile &replay, const std::string &name) {
  const std::string &program = replay.program.path;
  std::error_code error;
  if (!fs::is_regular_file(program, error)) {
    throw UsageError(fmt::format("{} was recorded for {}, which no longer exists", name, program));
  }
  ProgramIdentity now;
  try {
    now = identify_program(program);
  } catch (const std::runtime_error &e) {
    throw UsageError(e.what());
  }
  // Either way this is not the binary that failed, and its schedule would
  // mean nothing to it.
  if (now.size != replay.program.size || now.fnv1a64 != replay.program.fnv1a64) {
    throw UsageError(fmt::format(
        "replay file {} was recorded for {} (fnv1a64 {}), but {} now differs (rebuilt?)", name,
        program, replay.program.fnv1a64, program));
  }
}

ReplayFile read_replay_file(const std::string &path) {
  std::error_code error;
  if (!fs::exists(path, error)) throw UsageError("no such replay file: " + path);
  if (fs::is_directory(path, error)) throw UsageError(path + " is a directory, not a replay file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path + ": " + std::strerror(errno));

  json document;
  try {
    document = json::parse(in);
  } catch (const json::parse_error &e) {
    throw UsageError(
        fmt::format("{} is not a replay file (not valid JSON at byte {})", path, e.byte));
  }
  ReplayFile replay = replay_file_from_json(document, path);
  check_recorded_program(replay, path);
  return replay;
}

}  // namespace snag::cli
