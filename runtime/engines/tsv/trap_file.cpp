#include "engines/tsv/trap_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/kept_file.h"
#include "core/text_buffer.h"
#include "core/text_lines.h"
#include "core/whole_file.h"
#include "engines/tsv/trap_set.h"

namespace snag::tsv {

namespace {

constexpr char kHeader[] = "snag-tsv-traps 1";
// A trap file never needs more: the trap set holds at most 16384 pairs.
constexpr size_t kMaxFileSize = 4 << 20;

// "pair <16 hex> <16 hex> dangerous|ordered"
bool parse_pair(const TextLine &line, snag_site_t *a, snag_site_t *b, bool *dangerous) {
  constexpr size_t kFixed = 5 + 16 + 1 + 16 + 1;
  if (line.length < kFixed || !line.starts_with("pair ") || line.start[21] != ' ' ||
      line.start[38] != ' ')
    return false;
  if (!parse_site_hex(line.start + 5, a) || !parse_site_hex(line.start + 22, b)) return false;
  const TextLine state = line.after(kFixed);
  *dangerous = state.equals("dangerous");
  return *dangerous || state.equals("ordered");
}

class TrapSetLoader final : public TrapFileReader {
 public:
  void pair(snag_site_t a, snag_site_t b, bool dangerous) override {
    if (dangerous) add_dangerous_pair(a, b);
    else mark_ordered(a, b);
  }
};

void report(const char *path, const char *what) {
  char message[512] = "tsv: trap file ";
  copy_text(message + cstr_len(message), 300, path);
  copy_text(message + cstr_len(message), 200, what);
  print_error(message);
}

}  // namespace

bool parse_trap_file(const char *text, size_t length, TrapFileReader &reader, const char **error) {
  TextLines lines(text, length);
  for (TextLine line; lines.next(&line);) {
    if (lines.number() == 1) {
      if (!line.equals(kHeader)) {
        *error = "does not start with 'snag-tsv-traps 1'";
        return false;
      }
      continue;
    }
    if (line.length == 0 || line.start[0] == '#' || line.starts_with("program ")) continue;
    snag_site_t a, b;
    bool dangerous;
    if (!parse_pair(line, &a, &b, &dangerous)) {
      *error = "has a malformed line";
      return false;
    }
    reader.pair(a, b, dangerous);
  }
  if (lines.number() == 0) {
    *error = "is empty";
    return false;
  }
  return true;
}

void load_trap_file(const char *path) {
  WholeFile file;
  switch (file.read(path, kMaxFileSize)) {
    case WholeFile::kCannotOpen: return;  // the first run: nothing learned yet
    case WholeFile::kNotRegular: report(path, " is not a trap file; starting without it"); return;
    case WholeFile::kRead: break;
  }
  TrapSetLoader loader;
  const char *error = nullptr;
  if (!parse_trap_file(file.text(), file.size(), loader, &error)) {
    char what[128] = " ";
    copy_text(what + 1, sizeof what - 1, error);
    copy_text(what + cstr_len(what), 60, "; ignoring the rest");
    report(path, what);
  }
}

namespace {

KeptFile g_appender;  // the trap file, for appending

void format_pair(TextBuffer &b, snag_site_t first, snag_site_t second, bool dangerous) {
  b.add("pair ").add_hex(first, 16).add(' ').add_hex(second, 16);
  b.add(dangerous ? " dangerous\n" : " ordered\n");
}

}  // namespace

void save_trap_file(const char *path, const char *program) {
  constexpr uint32_t kMaxPairs = 1 << 14;
  auto *pairs = internal_new_array<LastingPair>(kMaxPairs);
  uint32_t count = copy_lasting_pairs(pairs, kMaxPairs);
  TextBuffer b;
  b.add(kHeader).add('\n');
  b.add("program ").add(program).add('\n');
  for (uint32_t i = 0; i < count; ++i) format_pair(b, pairs[i].a, pairs[i].b, pairs[i].dangerous);
  internal_free(pairs);

  char temporary[4096];
  copy_text(temporary, sizeof temporary - 16, path);
  copy_text(temporary + cstr_len(temporary), 16, ".tmp");
  int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    report(path, " cannot be written");
    return;
  }
  write_all(fd, b.data(), b.size());
  close(fd);
  if (rename(temporary, path) != 0) report(path, " cannot be replaced");
  g_appender.open(path, false);
}

void append_trap_pair(snag_site_t a, snag_site_t b, bool dangerous) {
  if (!g_appender.is_open()) return;
  TextBuffer line;
  format_pair(line, a, b, dangerous);
  g_appender.write(line.data(), line.size());
}

}  // namespace snag::tsv
