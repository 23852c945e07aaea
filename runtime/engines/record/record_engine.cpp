// The record engine writes every event (and, unless record_accesses=0, every
// memory access) as one text line. It detects nothing: it is how the tests
// check that the runtime produces the right event stream, and how a user can
// look at what snag sees (`snag events PROGRAM`).
//
// Line format:
//   <seq> T<tid> <kind> [addr=0x…] [addr2=0x…] [size=N] [order=N] [value=N]
//         [flags=N] [at=FILE:LINE:COL] [in FUNCTION]
#include <fcntl.h>
#include <new>

#include "core/engine.h"
#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/sites.h"
#include "core/spinlock.h"
#include "core/text_buffer.h"

namespace snag {
namespace {

class RecordEngine final : public Engine {
 public:
  RecordEngine() {
    const Options &o = options();
    wants_accesses = o.get_bool("record_accesses", true);
    if (const char *path = o.get("events")) {
      fd_ = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fd_ < 0) fd_ = 2;
    }
  }

  const char *name() const override { return "record"; }

  void on_start(ThreadState &main_thread) override {
    TextBuffer b;
    begin_line(b, main_thread, "start");
    finish_line(b, 0);
  }

  void on_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                 snag_site_t site) override {
    RuntimeScopeLite scope(t);
    TextBuffer b;
    begin_line(b, t, (flags & kAccessWrite) ? "write" : "read");
    b.add(" addr=").add_address(addr).add(" size=").add_u64(size);
    if (flags & kAccessRange) b.add(" range=1");
    finish_line(b, site);
  }

  Verdict on_event(ThreadState &t, const Event &e) override {
    TextBuffer b;
    begin_line(b, t, event_kind_name(e.kind));
    if (e.addr) b.add(" addr=").add_address(e.addr);
    if (e.addr2) b.add(" addr2=").add_address(e.addr2);
    if (e.size) b.add(" size=").add_u64(e.size);
    if (is_atomic(e.kind)) b.add(" order=").add_u64(e.order);
    if (e.value || e.kind == EventKind::kThreadCreate || e.kind == EventKind::kThreadJoin)
      b.add(" value=").add_u64(e.value);
    if (e.flags) b.add(" flags=").add_u64(e.flags);
    finish_line(b, e.site);
    return {};
  }

 private:
  // Accesses arrive without the runtime scope set (they are the hot path);
  // the engine sets it so its own work is not observed.
  struct RuntimeScopeLite {
    explicit RuntimeScopeLite(ThreadState &t) : t_(t) { ++t_.in_runtime; }
    ~RuntimeScopeLite() { --t_.in_runtime; }
    ThreadState &t_;
  };

  static bool is_atomic(EventKind k) {
    return k == EventKind::kAtomicBefore || k == EventKind::kAtomicAfter || k == EventKind::kFence;
  }

  void begin_line(TextBuffer &b, const ThreadState &t, const char *kind) {
    b.add(" T").add_u64(t.tid).add(' ').add(kind);
  }

  void finish_line(TextBuffer &b, snag_site_t site) {
    SiteInfo info;
    if (site && find_site(site, &info)) {
      b.add(" at=").add(info.file.data, info.file.size).add(':').add_u64(info.line);
      b.add(':').add_u64(info.column).add(" in ").add(info.function.data, info.function.size);
    }
    b.add('\n');
    // The sequence number is taken under the lock, so lines appear in order.
    SpinLockGuard guard(lock_);
    TextBuffer line;
    line.add_u64(seq_++).add(b.data(), b.size());
    line.write_to(fd_);
  }

  int fd_ = 2;
  uint64_t seq_ = 0;
  SpinLock lock_;
};

}  // namespace

Engine *create_record_engine() {
  return new (internal_alloc(sizeof(RecordEngine))) RecordEngine();
}

}  // namespace snag
