#include "engines/explore/output_oracle.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/text_buffer.h"
#include "engines/explore/failures.h"
#include "engines/explore/records.h"

namespace snag::explore {

namespace {

constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;
// Out of the program's way, like the stdin copy (inputs.cpp).
constexpr int kHighDescriptor = 910;
constexpr int kMaxFiles = 8;
// How much of a differing line the report quotes.
constexpr uint64_t kQuoted = 72;

long sys(long n, long a = 0, long b = 0, long c = 0, long d = 0) { return raw_syscall(n, a, b, c, d); }

struct OutputFile {
  char path[512];  // what this process opens (the CLI may give each worker its own)
  char name[256];  // what the user named, for the report
  bool existed;    // at the fork point
  long size;       // at the fork point
  bool reference_exists;
  uint64_t reference_hash;
  int reference_fd;  // a memory copy of the reference, or -1
};

bool g_active = false;
bool g_has_reference = false;
int g_capture = -1;            // the children's stdout
int g_reference_stdout = -1;   // what schedule 0 printed
uint64_t g_reference_stdout_hash = 0;
OutputFile g_files[kMaxFiles];
int g_file_count = 0;

// The first difference, for the record.
const char *g_diff_where = "";
uint64_t g_diff_line = 0;
long g_diff_start = 0;  // where that line starts
bool g_differed = false;
char g_diff_reference[kQuoted + 1];
char g_diff_schedule[kQuoted + 1];

int new_memory_file(const char *name) {
  int fd = static_cast<int>(sys(SYS_memfd_create, reinterpret_cast<long>(name), MFD_CLOEXEC));
  if (fd < 0) return -1;
  int high = static_cast<int>(sys(SYS_fcntl, fd, F_DUPFD_CLOEXEC, kHighDescriptor));
  sys(SYS_close, fd);
  return high;
}

long file_size(int fd) {
  struct stat st;
  return sys(SYS_fstat, fd, reinterpret_cast<long>(&st)) == 0 ? long(st.st_size) : -1;
}

uint64_t hash_of(int fd) {
  static char buffer[65536];
  uint64_t hash = kFnvOffsetBasis;
  for (long at = 0;;) {
    long n = sys(SYS_pread64, fd, reinterpret_cast<long>(buffer), sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (long i = 0; i < n; ++i) hash = (hash ^ static_cast<unsigned char>(buffer[i])) * kFnvPrime;
    at += n;
  }
  return hash;
}

// A new memory file holding what `fd` holds.
int copy_of(int fd) {
  static char buffer[65536];
  int copy = new_memory_file("snag-output-reference");
  if (copy < 0) return -1;
  for (long at = 0;;) {
    long n = sys(SYS_pread64, fd, reinterpret_cast<long>(buffer), sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    write_all(copy, buffer, size_t(n));
    at += n;
  }
  return copy;
}

int open_output(const OutputFile &f) {
  return static_cast<int>(
      sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>(f.path), O_RDONLY | O_CLOEXEC));
}

// The whole contents of `fd`, in runtime pages (unmap with `release`).
struct Contents {
  char *data = nullptr;
  long size = 0;
  size_t mapped = 0;
};

Contents read_all(int fd) {
  Contents c;
  long size = fd < 0 ? 0 : file_size(fd);
  if (size <= 0) return c;
  c.mapped = size_t(size);
  c.data = static_cast<char *>(map_pages(c.mapped));
  while (c.size < size) {
    long n = sys(SYS_pread64, fd, reinterpret_cast<long>(c.data + c.size), size - c.size, c.size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    c.size += n;
  }
  return c;
}

void release(Contents &c) {
  if (c.data) unmap_pages(c.data, c.mapped);
  c = Contents();
}

// Line `start`.. of `c`, at most kQuoted bytes, into `out`.
void quote_line(const Contents &c, long start, char *out) {
  uint64_t n = 0;
  for (long i = start; i < c.size && c.data[i] != '\n' && n < kQuoted; ++i) {
    char ch = c.data[i];
    out[n++] = (ch == '\r' || ch == '\t' || (unsigned char)ch < 32) ? ' ' : ch;
  }
  out[n] = '\0';
}

// Finds the first line where `reference` and `schedule` differ, and
// remembers both versions of it.
void find_difference(const char *where, const Contents &reference, const Contents &schedule) {
  long i = 0;
  while (i < reference.size && i < schedule.size && reference.data[i] == schedule.data[i]) ++i;
  long line_start = 0;
  uint64_t line = 1;
  for (long k = 0; k < i; ++k)
    if (reference.data[k] == '\n') ++line, line_start = k + 1;
  g_diff_where = where;
  g_diff_line = line;
  g_diff_start = line_start;
  quote_line(reference, line_start, g_diff_reference);
  quote_line(schedule, line_start, g_diff_schedule);
}

void add_quoted(TextBuffer &b, const Contents &c, long at, const char *text) {
  if (at >= c.size && !text[0]) {
    b.add("nothing (the output ends before it)");
    return;
  }
  b.add('"').add(text).add('"');
}

// "stdout line 3 is "sum 7"; schedule 0 printed "sum 10""
void describe_difference(TextBuffer &b, const Contents &reference, const Contents &schedule,
                         bool file) {
  b.add(g_diff_where).add(" line ").add_u64(g_diff_line).add(" is ");
  add_quoted(b, schedule, g_diff_start, g_diff_schedule);
  b.add("; schedule 0 ").add(file ? "wrote " : "printed ");
  add_quoted(b, reference, g_diff_start, g_diff_reference);
}

void report(TextBuffer &message) {
  message.add('\0');
  report_output_mismatch(message.data(), g_diff_where, g_diff_line, g_diff_reference,
                         g_diff_schedule);
}

// Reads the list the CLI wrote: "PATH\tNAME" lines.
void read_file_list(const char *list) {
  int fd = static_cast<int>(sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>(list), O_RDONLY | O_CLOEXEC));
  if (fd < 0) {
    print_error("explore: cannot read the compare_output file list; comparing stdout only");
    return;
  }
  Contents c = read_all(fd);
  sys(SYS_close, fd);
  for (long at = 0; at < c.size && g_file_count < kMaxFiles;) {
    long end = at;
    while (end < c.size && c.data[end] != '\n') ++end;
    long tab = at;
    while (tab < end && c.data[tab] != '\t') ++tab;
    OutputFile &f = g_files[g_file_count];
    long path_length = tab - at;
    long name_length = tab < end ? end - tab - 1 : path_length;
    const char *name = tab < end ? c.data + tab + 1 : c.data + at;
    if (path_length > 0 && path_length < long(sizeof f.path) && name_length < long(sizeof f.name)) {
      for (long k = 0; k < path_length; ++k) f.path[k] = c.data[at + k];
      f.path[path_length] = '\0';
      for (long k = 0; k < name_length; ++k) f.name[k] = name[k];
      f.name[name_length] = '\0';
      f.reference_fd = -1;
      ++g_file_count;
    }
    at = end + 1;
  }
  release(c);
}

}  // namespace

bool output_oracle_start() {
  const char *list = options().text("compare_output");
  if (!list || !list[0]) return false;
  g_capture = new_memory_file("snag-schedule-stdout");
  if (g_capture < 0) {
    print_error("explore: cannot make a memory file for the schedules' stdout; output not compared");
    return false;
  }
  if (!cstr_eq(list, "stdout")) read_file_list(list);
  // As the program left them at the fork point: each schedule starts there.
  for (int i = 0; i < g_file_count; ++i) {
    OutputFile &f = g_files[i];
    int fd = open_output(f);
    f.existed = fd >= 0;
    f.size = fd >= 0 ? file_size(fd) : 0;
    if (fd >= 0) sys(SYS_close, fd);
  }
  g_active = true;
  return true;
}

bool output_oracle_active() { return g_active; }
bool output_oracle_has_reference() { return g_has_reference; }

void output_oracle_before_schedule() {
  if (!g_active) return;
  sys(SYS_ftruncate, g_capture, 0);
  sys(SYS_lseek, g_capture, 0, SEEK_SET);
  for (int i = 0; i < g_file_count; ++i) {
    const OutputFile &f = g_files[i];
    if (f.existed)
      sys(SYS_truncate, reinterpret_cast<long>(f.path), f.size);
    else
      sys(SYS_unlinkat, AT_FDCWD, reinterpret_cast<long>(f.path), 0);
  }
}

void output_oracle_enter_child() {
  if (!g_active) return;
  // Flushed before the fork: the child's stdio starts with an empty buffer.
  sys(SYS_dup3, g_capture, 1, 0);
}

void output_oracle_take_reference(bool ended_cleanly, char *note, uint64_t capacity) {
  if (!g_active || g_has_reference) return;
  if (!ended_cleanly) {
    g_active = false;
    if (note && !note[0])
      copy_text(note, capacity,
                "--compare-output: schedule 0 did not run to a clean end, so there was no "
                "reference output and no schedule's output was compared");
    return;
  }
  g_reference_stdout = copy_of(g_capture);
  g_reference_stdout_hash = hash_of(g_capture);
  for (int i = 0; i < g_file_count; ++i) {
    OutputFile &f = g_files[i];
    int fd = open_output(f);
    f.reference_exists = fd >= 0;
    f.reference_hash = fd >= 0 ? hash_of(fd) : 0;
    f.reference_fd = fd >= 0 ? copy_of(fd) : -1;
    if (fd >= 0) sys(SYS_close, fd);
  }
  g_has_reference = true;
}

bool output_oracle_differs() {
  if (!g_active || !g_has_reference) return false;
  if (hash_of(g_capture) != g_reference_stdout_hash) {
    Contents reference = read_all(g_reference_stdout), schedule = read_all(g_capture);
    find_difference("stdout", reference, schedule);
    TextBuffer message;
    message.add("output differs from schedule 0's: ");
    describe_difference(message, reference, schedule, false);
    release(reference);
    release(schedule);
    g_differed = true;
    report(message);
    return true;
  }
  for (int i = 0; i < g_file_count; ++i) {
    const OutputFile &f = g_files[i];
    int fd = open_output(f);
    bool exists = fd >= 0;
    uint64_t hash = exists ? hash_of(fd) : 0;
    if (exists == f.reference_exists && hash == f.reference_hash) {
      if (fd >= 0) sys(SYS_close, fd);
      continue;
    }
    TextBuffer message;
    message.add("output differs from schedule 0's: ");
    if (exists != f.reference_exists) {
      g_diff_where = f.name;
      g_diff_line = 0;
      g_diff_reference[0] = g_diff_schedule[0] = '\0';
      message.add(f.name).add(exists ? " was written, but not by schedule 0"
                                     : " was not written; schedule 0 wrote it");
    } else {
      Contents reference = read_all(f.reference_fd), schedule = read_all(fd);
      find_difference(f.name, reference, schedule);
      describe_difference(message, reference, schedule, true);
      release(reference);
      release(schedule);
    }
    if (fd >= 0) sys(SYS_close, fd);
    g_differed = true;
    report(message);
    return true;
  }
  return false;
}

void output_oracle_write_record() {
  if (!g_differed) return;
  TextBuffer b;
  b.add("{\"type\":\"output\",\"stdout\":\"").add_hex(g_reference_stdout_hash, 16).add('"');
  b.add(",\"files\":[");
  for (int i = 0; i < g_file_count; ++i) {
    const OutputFile &f = g_files[i];
    if (i) b.add(',');
    b.add("{\"name\":").add_json_string(f.name).add(",\"fnv1a64\":");
    if (f.reference_exists) b.add('"').add_hex(f.reference_hash, 16).add('"');
    else b.add("null");
    b.add('}');
  }
  b.add("],\"where\":").add_json_string(g_diff_where);
  b.add(",\"line\":").add_u64(g_diff_line);
  b.add(",\"reference\":").add_json_string(g_diff_reference);
  b.add(",\"schedule\":").add_json_string(g_diff_schedule);
  b.add("}\n");
  write_record_text(b);
}

}  // namespace snag::explore
