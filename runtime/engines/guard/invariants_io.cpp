#include "engines/guard/invariants_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/text_buffer.h"
#include "core/whole_file.h"
#include "engines/guard/guard_state.h"
#include "engines/guard/invariants_file.h"

namespace snag::guard {

namespace {

class BSetLoader final : public InvariantsReader {
 public:
  void entry(snag_site_t site, snag_site_t predecessor) override {
    bool added = false;
    SitePairs::Entry *member = g_bsets.insert(site, predecessor, &added);
    SitePairs::Entry *summary = g_bsets.insert(site, kFactSummary);
    if (!member || !summary || !added) return;
    // Chain the members from the summary (single-threaded: at start-up).
    member->extra.store(summary->extra.load(std::memory_order_relaxed), std::memory_order_relaxed);
    summary->extra.store(g_bsets.index_of(*member) + 1, std::memory_order_relaxed);
    ++summary->count;
    ++entries;
  }
  void lock(snag_site_t site, snag_site_t lock_site) override {
    if (SitePairs::Entry *e = g_bsets.insert(site, kFactLock))
      e->extra.store(lock_site, std::memory_order_relaxed);
  }
  uint64_t entries = 0;
};

void complain(const char *what, const char *path, const char *why) {
  TextBuffer b;
  b.add(what).add(path).add(' ').add(why).add('\0');
  print_error(b.data());
}

}  // namespace

bool load_invariants(const char *path) {
  const char *prefix = g_params.mode == Mode::kGuard ? "guard: invariants file " : "invariants file ";
  const char *tail = g_params.mode == Mode::kGuard ? "; the program runs unguarded" : "";
  WholeFile file;
  WholeFile::Status status = file.read(path, size_t{256} << 20);
  if (status != WholeFile::kRead) {
    TextBuffer why;
    why.add(status == WholeFile::kCannotOpen ? "cannot be read" : "is not a regular file of at most 256 MiB")
        .add(tail)
        .add('\0');
    complain(prefix, path, why.data());
    return false;
  }
  BSetLoader loader;
  const char *error = nullptr;
  int line = 0;
  bool ok = parse_invariants(file.text(), file.size(), loader, &error, &line);
  if (!ok) {
    TextBuffer why;
    why.add(error);
    if (line > 0) why.add(" at line ").add_u64(static_cast<uint64_t>(line));
    why.add(tail).add('\0');
    complain(prefix, path, why.data());
    return false;
  }
  return true;
}

void write_learned() {
  if (!g_params.learn_out || getpid() != g_owner_pid) return;
  TextBuffer b;
  b.add("snag-invariants 1\nprogram ").add(g_program).add('\n');
  g_learned.for_each([&](const SitePairs::Entry &e) {
    if (e.value == kFactCount) {
      b.add("count ").add_hex(e.site, 16).add(' ').add_u64(e.extra.load()).add('\n');
    } else if (e.value == kFactLock) {
      snag_site_t lock = e.extra.load();
      if (lock) b.add("lock ").add_hex(e.site, 16).add(' ').add_hex(lock, 16).add('\n');
    } else {
      b.add("bset ").add_hex(e.site, 16).add(' ');
      if (e.value) b.add_hex(e.value, 16);
      else b.add("nil");
      b.add('\n');
    }
  });
  g_edges.for_each([&](const SitePairs::Entry &e) {
    b.add("edge ").add_hex(e.site, 16).add(' ').add_hex(e.value, 16).add('\n');
  });
  int fd = open(g_params.learn_out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    complain("learn: cannot write ", g_params.learn_out, "");
    return;
  }
  write_all(fd, b.data(), b.size());
  close(fd);
}

}  // namespace snag::guard
