// The findings model: one C++ value per finding, mirroring the JSON-lines
// format of docs/findings.md field for field, so that every engine (and
// `snag check`) feeds the same report pipeline.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding_text.h"

namespace snag::report {

// The format version this model reads and writes (the "snag" field).
inline constexpr int kFindingsFormatVersion = 1;

// One stack frame. `site` is the stable site id (16 hex digits); the other
// fields are filled by the writer when it could resolve the site, or later by
// resolve() from the program's site table. Empty/0 means "unknown".
struct Frame {
  std::string site;
  std::string function;
  std::string file;
  int64_t line = 0;
  int64_t column = 0;
  // Code snag did not compile (no site): its module and the offset in it,
  // which llvm-symbolizer turns into function, file and line.
  std::string module;
  uint64_t offset = 0;

  bool has_location() const { return !file.empty(); }
  // "file:line:column", leaving out parts that are unknown; empty without a file.
  std::string location() const;
  // How the frame is shown to a human: "function file:line:column", or
  // "<unknown site 9a3b1c0d2e4f5061>" when nothing is known but the id.
  std::string display() const;

  bool operator==(const Frame &) const = default;
};

using Stack = std::vector<Frame>;

struct Access {
  std::string address;  // hex string as written, e.g. "0x7b0400000010"
  uint64_t size = 0;
  std::string kind;  // "read", "write", "atomic read", ...

  bool operator==(const Access &) const = default;
};

struct Lock {
  std::string address;
  std::string name;  // optional ("M1"); writers may leave it out
  Stack stack;       // where it was acquired, may be empty

  bool operator==(const Lock &) const = default;
};

struct Side {
  std::string role;         // "current", "previous", "waiting", ... (optional)
  std::string description;  // the line printed above the stack
  std::optional<int64_t> thread;
  std::optional<Access> access;
  Stack stack;  // innermost first
  std::vector<Lock> locks;

  bool operator==(const Side &) const = default;
};

struct ThreadInfo {
  int64_t id = 0;
  std::string name;               // optional; shown as "T<id>" when empty
  std::optional<int64_t> parent;  // the creator; absent for the main thread
  Stack stack;                    // where it was created

  std::string display_name() const;
  bool operator==(const ThreadInfo &) const = default;
};

struct HeapBlock {
  std::string address;
  uint64_t size = 0;
  std::optional<int64_t> thread;  // the allocating thread
  Stack stack;                    // the allocation stack

  bool operator==(const HeapBlock &) const = default;
};

struct GlobalVar {
  std::string name;
  std::string address;
  uint64_t size = 0;

  bool operator==(const GlobalVar &) const = default;
};

struct Finding {
  int64_t format_version = kFindingsFormatVersion;  // "snag"
  std::string engine;
  std::string kind;
  std::string title;  // optional; see display_title()
  std::string message;
  std::string severity = "error";
  double rank = 0.5;
  std::optional<uint64_t> seed;
  // The process that reported it. Not in the table of docs/findings.md, but
  // the runtime writes it and the text report shows it as "(pid=N)".
  std::optional<int64_t> pid;
  nlohmann::json details;  // an object, or null when absent
  std::vector<Side> sides;
  std::vector<ThreadInfo> threads;
  std::optional<HeapBlock> heap;
  std::optional<GlobalVar> global;
  // How many identical findings dedup() merged into this one (1 = unique).
  uint64_t count = 1;

  // `title`, or `kind` with dashes as spaces when no title was given.
  std::string display_title() const;
  // The primary location: the first side's innermost frame outside the
  // toolchain's headers (else its innermost frame), if any.
  const Frame *primary_frame() const;
  // The thread with this id in `threads`, if listed.
  const ThreadInfo *thread_info(int64_t id) const;

  bool operator==(const Finding &) const = default;
};

// The first frame of `side` outside the toolchain's headers (else its
// innermost frame), or null for an empty stack: the program's own line.
const Frame *side_primary_frame(const Side &side);

// The frame as common/finding_text lays it out (a view into `f`).
text::Frame text_frame(const Frame &f);

// Converts one finding to its JSON object. Optional fields that are absent or
// hold their default are left out; `count` is written only when above 1.
nlohmann::json to_json(const Finding &finding);

// Converts a JSON object to a finding. Returns std::nullopt and sets `error`
// when a required field is missing or has the wrong type. A malformed
// optional field is dropped and described in `notes`, so one bad detail does
// not lose the whole finding.
std::optional<Finding> finding_from_json(const nlohmann::json &object, std::string &error,
                                         std::vector<std::string> &notes);

// Reads a JSON-lines findings stream. Blank lines are ignored; a line that does
// not parse (such as the half-written last line of a killed program) or lacks a
// required field is skipped with a warning "line N: ...". Never throws on bad
// input.
std::vector<Finding> read_findings(std::istream &in, std::vector<std::string> &warnings);

}  // namespace snag::report
