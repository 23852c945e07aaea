// Replay files (docs/explore.md): everything `snag replay` needs to run one
// failing schedule again — the program (identified by path, size and
// content hash, so a rebuilt binary is refused rather than replayed wrongly),
// its arguments, the options that shape scheduling, the bug, and the
// decisions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace snag::cli {

inline constexpr int kReplayFormatVersion = 1;  // the "snag_replay" field

struct ProgramIdentity {
  std::string path;  // absolute
  uint64_t size = 0;
  std::string fnv1a64;  // FNV-1a 64 of the contents, 16 lowercase hex digits

  bool operator==(const ProgramIdentity &) const = default;
};

struct ReplayBug {
  std::string kind;      // the finding's kind ("deadlock", ...)
  std::string message;   // its one-line message, for people
  std::string location;  // its primary frame, see bug_location(); "" if none

  bool operator==(const ReplayBug &) const = default;
};

// "output" (an output-mismatch found with --compare-output): what schedule 0
// wrote, as hashes, and the first line where the failing schedule differed.
struct ExpectedOutput {
  struct File {
    std::string name;     // as the user named it (--compare-file)
    std::string fnv1a64;  // "" when schedule 0 did not write it
    bool operator==(const File &) const = default;
  };
  std::string stdout_fnv1a64;
  std::vector<File> files;
  std::string where;  // "stdout" or a file's name
  uint64_t line = 0;  // 0: the file was written by one and not the other
  std::string reference_line;  // schedule 0's version of that line
  std::string schedule_line;   // the failing schedule's

  bool operator==(const ExpectedOutput &) const = default;
};

struct ReplayFile {
  ProgramIdentity program;
  std::vector<std::string> arguments;  // without argv[0]
  std::string strategy;
  uint64_t seed = 0;
  uint64_t schedule = 0;
  // "options": what shapes the schedule beyond the decisions.
  bool preempt_on_access = false;
  bool with_race = false;
  uint64_t max_steps = 0;
  // --eager-threads: kernel threads were created in pthread_create. A
  // program that counts its threads (/proc/self/task) behaves differently;
  // in the file only when true.
  bool eager_threads = false;
  // The scheduling points of the schedule, as the runtime reported them
  // ("sync", "accesses", "vars/K1,K2"); optional in the file, where its
  // absence means "accesses" with preempt_on_access and "sync" without.
  std::string points;
  ReplayBug bug;
  uint64_t preemptions = 0;
  std::string decisions;
  std::optional<ExpectedOutput> output;

  bool operator==(const ReplayFile &) const = default;
};

// The scheduling points a schedule has when nothing says otherwise:
// "accesses" with preempt_on_access, "sync" without.
std::string default_points(bool preempt_on_access);

// FNV-1a 64 of `bytes` as 16 lowercase hex digits.
std::string fnv1a64_hex(std::string_view bytes);

// Path (made absolute), size and hash of the file at `path`. Throws
// std::runtime_error when it cannot be read.
ProgramIdentity identify_program(const std::string &path);

nlohmann::ordered_json to_json(const ReplayFile &replay);

// Throws std::runtime_error ("cannot write replay file P: ...").
void write_replay_file(const std::string &path, const ReplayFile &replay);

// Reads and validates the file at `path`, and checks that the program it
// names still exists and is unchanged. Every defect throws a UsageError
// with one line naming the file and the problem.
ReplayFile read_replay_file(const std::string &path);

// The same checks on an already parsed document; `name` is the file's name
// for messages. Does not look at the program.
ReplayFile replay_file_from_json(const nlohmann::json &document, const std::string &name);

// Throws UsageError when the program `replay` names is missing or differs.
void check_recorded_program(const ReplayFile &replay, const std::string &name);

}  // namespace snag::cli
