// The one place a finding's text report is laid out (ThreadSanitizer's
// layout): the runtime's standalone stderr output (runtime/core/findings.cpp)
// and `snag`'s text report (report/text_writer.cpp) both describe a finding
// with these plain structs and call write_finding_text.
//
// Dependency-free and allocation-free, so the runtime can use it on its
// report path: no libstdc++, no malloc, no exceptions; strings are views,
// text goes to a caller-provided sink.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace snag::text {

// A string view that need not end in '\0'; empty means "unknown".
struct Str {
  const char *data = "";
  size_t size = 0;

  Str() = default;
  Str(const char *s);  // NOLINT: plain C strings convert; null is empty
  Str(const char *s, size_t n) : data(s ? s : ""), size(s ? n : 0) {}
  bool empty() const { return size == 0; }
};

// Where the text goes: a runtime TextBuffer, a std::ostream, a std::string.
class Sink {
 public:
  virtual void write(const char *data, size_t size) = 0;

 protected:
  ~Sink() = default;
};

// A sink over a fixed char array: always '\0'-terminated, cutting off
// what does not fit.
class FixedSink final : public Sink {
 public:
  FixedSink(char *buffer, size_t capacity) : buffer_(buffer), capacity_(capacity) {
    if (capacity_) buffer_[0] = '\0';
  }
  void write(const char *data, size_t size) override;

 private:
  char *buffer_;
  size_t capacity_;
  size_t used_ = 0;
};

struct Frame {
  Str function;
  Str file;
  uint64_t line = 0;    // 0: unknown
  uint64_t column = 0;  // 0: unknown
  // The site id, shown when neither function nor file is known: `site`
  // when given, else `site_number` in 16 hex digits (0: no site at all).
  Str site;
  uint64_t site_number = 0;
  // Code snag did not compile, without a known file: the module (executable
  // or shared library) and the offset in it, shown as "(module+0x1f2e)".
  Str module;
  uint64_t module_offset = 0;
};

struct Stack {
  const Frame *frames = nullptr;  // innermost first
  uint32_t count = 0;
};

// A thread as reports name it: "main thread" (id 0), else "thread NAME"
// with NAME defaulting to "T<id>".
struct ThreadRef {
  bool known = false;
  int64_t id = 0;
  Str name;
};

struct Lock {
  Str name;     // empty: numbered M1, M2, ... in order of appearance
  Str address;  // "0x..."
  Stack stack;  // where it was acquired; empty: no "acquired here" block
};

struct Side {
  Str description;  // "Write of size 4 at 0x... by thread T1"
  const Lock *locks = nullptr;
  uint32_t lock_count = 0;
  Stack stack;
};

struct Thread {
  ThreadRef self;
  ThreadRef parent;  // unknown: the main thread, which nobody created
  Stack stack;       // where it was created
};

struct Detail {
  Str key;
  Str value;
};

struct Finding {
  Str title;  // empty: `kind` with dashes as spaces
  Str kind;
  Str message;  // shown when it says more than the first side's description
  bool has_pid = false;
  int64_t pid = 0;
  uint64_t count = 1;  // identical findings merged into this one

  const Side *sides = nullptr;
  uint32_t side_count = 0;

  bool has_heap = false;
  uint64_t heap_size = 0;
  Str heap_address;
  ThreadRef heap_thread;
  Stack heap_stack;

  Str global_name;  // empty: no global
  uint64_t global_size = 0;
  Str global_address;

  const Thread *threads = nullptr;
  uint32_t thread_count = 0;

  const Detail *details = nullptr;
  uint32_t detail_count = 0;

  bool has_seed = false;
  uint64_t seed = 0;

  const Frame *primary = nullptr;  // the SUMMARY line's frame, if any
};

struct Style {
  bool color = false;  // ANSI colors, for terminals
};

// A memory access as a side of a race shows it: "Write of size 4 at
// 0x7b0400000010 by thread T2", "Previous read of size 8 at ... by main
// thread". The locks held are not part of it: the side's locks are shown.
void write_access_description(Sink &out, bool previous, bool write, uint64_t size, Str address,
                              const ThreadRef &thread);

// Code inlined from the toolchain's headers (std::mutex::lock, vector's
// push_back): the program's own call further down is where to look.
bool in_toolchain_header(Str file);
// The frame a finding is shown at: the first one with a file outside the
// toolchain's headers, else the innermost; null for an empty stack.
const Frame *primary_frame(const Stack &stack);

// One finding's block, from the opening separator to the closing one.
void write_finding_text(Sink &out, const Finding &finding, const Style &style);

// "function file:line:column", or what of it is known, or
// "<unknown site 0123456789abcdef>", or "<unknown frame>".
void write_frame(Sink &out, const Frame &frame);
// "file:line:column", leaving out unknown parts; nothing without a file.
void write_location(Sink &out, const Frame &frame);

}  // namespace snag::text
