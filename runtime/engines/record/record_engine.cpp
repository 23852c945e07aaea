// The record engine writes every event (and, unless record_accesses=0, every
// memory access) as one text line. It detects nothing: it is how the tests
// check that the runtime produces the right event stream, and how a user can
// look at what snag sees (`snag events PROGRAM`).
//
// record_only=<kind>,<kind>,... keeps only lines of those kinds.
// With report_on=<event kind> (for example report_on=thread-join) it also
// reports a finding at every event of that kind, which exercises the whole
// findings path (stacks, threads, heap blocks) without a detection engine.
//
// Line format:
//   <seq> T<tid> <kind> [addr=0x…] [addr2=0x…] [size=N] [order=N] [value=N]
//         [flags=N] [inlined=FILE:LINE,...] [at=FILE:LINE:COL] [in FUNCTION]
#include <fcntl.h>
#include <new>

#include "core/engine.h"
#include "core/findings.h"
#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/sites.h"
#include "core/spinlock.h"
#include "core/text_buffer.h"

namespace snag {
namespace {

class RecordEngine;
RecordEngine *g_record;

class RecordEngine final : public Engine {
 public:
  RecordEngine() {
    const Options &o = options();
    if (o.flag("record_accesses")) access_hook = record_access;
    wants_api_calls = true;
    report_on_ = o.text("report_on");
    only_ = o.text("record_only");
    if (const char *path = o.text("events")) {
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

  static void record_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                            snag_site_t site) {
    g_record->write_access(t, addr, size, flags, site);
  }

  void write_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                    snag_site_t site) {
    RuntimeScope scope(&t);  // accesses arrive without it (the hot path)
    const char *kind = (flags & kAccessWrite) ? "write" : "read";
    if (!wanted(kind)) return;
    TextBuffer b;
    begin_line(b, t, kind);
    b.add(" addr=").add_address(addr).add(" size=").add_u64(size);
    if (flags & kAccessRange) b.add(" range=1");
    finish_line(b, site);
  }

  Verdict on_event(ThreadState &t, const Event &e) override {
    if (report_on_ && cstr_eq(report_on_, event_kind_name(e.kind))) report(t, e);
    if (!wanted(event_kind_name(e.kind))) return {};
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
  // record_only=kind,kind,... limits the lines to those kinds.
  bool wanted(const char *kind) const {
    if (!only_) return true;
    size_t n = cstr_len(kind);
    for (const char *p = only_; *p;) {
      const char *end = p;
      while (*end && *end != ',') ++end;
      if (size_t(end - p) == n && cstr_starts_with(p, kind)) return true;
      p = *end ? end + 1 : end;
    }
    return false;
  }

  static bool is_atomic(EventKind k) {
    return k == EventKind::kAtomicBefore || k == EventKind::kAtomicAfter || k == EventKind::kFence;
  }

  void begin_line(TextBuffer &b, const ThreadState &t, const char *kind) {
    b.add(" T").add_u64(t.tid).add(' ').add(kind);
  }

  // Lines name the place in the function that really contains the code: the
  // outermost frame of the site's inlining chain (for `flag.store()` that is
  // the caller's line, not <atomic>).
  // When the code was inlined, inlined= lists the inlined frames, innermost
  // first, as FILE:LINE (for `latch.count_down()`: atomic_base.h, latch...).
  void finish_line(TextBuffer &b, snag_site_t site) {
    SiteInfo info;
    bool found = site && find_site(site, &info);
    for (int depth = 0; found && info.parent && depth < 32; ++depth) {
      b.add(depth ? "," : " inlined=").add(info.file.data, info.file.size).add(':').add_u64(info.line);
      SiteInfo outer;
      if (!find_site(info.parent, &outer)) break;
      info = outer;
    }
    if (found) {
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

  void report(ThreadState &t, const Event &e) {
    Finding *f = new_finding("record", "recorded-event");
    TextBuffer message;
    message.add("event ").add(event_kind_name(e.kind)).add(" in thread T").add_u64(t.tid).add('\0');
    copy_text(f->message, sizeof f->message, message.data());
    f->severity = "note";
    FindingSide &side = f->add_side();
    copy_text(side.description, sizeof side.description, message.data());
    side.thread = t.tid;
    capture_stack(t.shadow, e.site, &side.stack);
    bool names_thread = e.kind == EventKind::kThreadCreate || e.kind == EventKind::kThreadJoin ||
                        e.kind == EventKind::kThreadDetach;
    if (ThreadState *other = names_thread ? thread_by_tid(static_cast<Tid>(e.value)) : nullptr) {
      FindingSide &peer = f->add_side();
      peer.role = "other";
      TextBuffer d;
      d.add("Thread T").add_u64(other->tid).add(" was created here").add('\0');
      copy_text(peer.description, sizeof peer.description, d.data());
      peer.thread = other->tid;
      depot_get(other->creation_stack, &peer.stack);
    }
    if (e.kind == EventKind::kAlloc) {
      f->has_heap = true;
      f->heap_address = e.addr;
      f->heap_size = e.value;
      f->heap_thread = t.tid;
      f->heap_stack = side.stack;
    }
    f->add_detail("event", event_kind_name(e.kind));
    report_finding(f);
  }

  const char *report_on_ = nullptr;
  const char *only_ = nullptr;
  int fd_ = 2;
  uint64_t seq_ = 0;
  SpinLock lock_;
};

}  // namespace

Engine *create_record_engine() {
  g_record = new (internal_alloc(sizeof(RecordEngine))) RecordEngine();
  return g_record;
}

}  // namespace snag
