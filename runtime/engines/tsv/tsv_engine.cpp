// The `tsv` engine (docs/tsv.md): TSVD's thread-safety-violation detector
// (paper 000). It watches only the TSVD points — calls to members of
// thread-unsafe classes and MT-unsafe libc functions (kApiBegin/kApiEnd) —
// and reports a violation only when two threads are caught inside
// conflicting calls on the same object at the same time, so it never
// guesses. To make that happen it delays, for 100 ms, calls at sites that
// nearly conflicted (near misses), learns from delays that block other
// threads that the pair is ordered, and carries its trap set to the next
// run in the trap file.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/api_calls.h"
#include "core/engine.h"
#include "core/findings.h"
#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/runtime.h"
#include "core/spinlock.h"
#include "engines/tsv/hb_inference.h"
#include "engines/tsv/object_table.h"
#include "engines/tsv/trap_file.h"
#include "engines/tsv/trap_set.h"
#include "engines/tsv/tsv_params.h"
#include "engines/tsv/tsv_report.h"

namespace snag::tsv {

namespace {

// A call the thread is inside, to end it at kApiEnd.
struct OpenCall {
  uintptr_t object;
  int slot;  // in the object's table entry; -1 when untracked
};

// Times are now_ns() values.
struct TsvThread {
  uint64_t created_ns;       // when its parent created it
  uint64_t last_call_ns;     // when its previous TSVD call started (or it started)
  snag_site_t blocked_by;    // the delayed site its recent silence followed
  uint32_t blocked_calls;    // calls left that happen after `blocked_by`
  uint32_t delayed_ms;       // delay injected into this thread so far
  uint64_t phase_ms;         // the millisecond it last wrote to the phase history
  uint64_t random;           // xorshift state
  static constexpr int kMaxOpen = 32;
  uint32_t open_count;       // may exceed kMaxOpen; deeper calls are untracked
  OpenCall open[kMaxOpen];
  // The threads it joined most recently, and when.
  static constexpr int kMaxJoined = 8;
  uint32_t joined_next;
  Tid joined[kMaxJoined];
  uint64_t joined_ns[kMaxJoined];
};

// The concurrent-phase history (paper 000, 3.4.3): the threads that made the
// latest TSVD calls. A thread writes its id at most once per millisecond, so
// the history costs nearly nothing when one thread calls in a tight loop.
constexpr uint32_t kMaxPhase = 64;
std::atomic<uint32_t> g_phase_next;
std::atomic<Tid> g_phase[kMaxPhase];

// Where and for whom the trap file is written: only the process that read
// it (a forked child leaves it alone), at most every 100 ms while running.
int g_owner_pid;
const char *g_program = "program";
std::atomic<uint64_t> g_trap_file_saved_ns;
std::atomic<bool> g_trap_set_changed;
SpinLock g_save_lock;  // one writer of the temporary file at a time

TsvThread &thread_data(ThreadState &t) {
  auto *tt = static_cast<TsvThread *>(t.engine_data[kTsvSlot]);
  if (SNAG_UNLIKELY(!tt)) {
    tt = static_cast<TsvThread *>(internal_alloc(sizeof(TsvThread)));
    tt->last_call_ns = now_ns();
    tt->random = (run_seed() + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t(t.tid) + 1) * 0xbf58476d1ce4e5b9ull;
    if (!tt->random) tt->random = 1;
    t.engine_data[kTsvSlot] = tt;
  }
  return *tt;
}

uint32_t next_random(TsvThread &tt) {
  uint64_t x = tt.random;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  tt.random = x;
  return static_cast<uint32_t>(x >> 32);
}

bool in_concurrent_phase(TsvThread &tt, Tid me, uint64_t now) {
  uint32_t n = params().phase_calls;
  uint64_t ms = now / kNsPerMs + 1;
  if (tt.phase_ms != ms) {
    tt.phase_ms = ms;
    g_phase[g_phase_next.fetch_add(1, std::memory_order_relaxed) % n].store(
        me + 1, std::memory_order_relaxed);
  }
  for (uint32_t i = 0; i < n; ++i) {
    Tid other = g_phase[i].load(std::memory_order_relaxed);
    if (other != 0 && other != me + 1) return true;
  }
  return false;
}

void save_trap_file_now(uint64_t now) {
  if (!params().trap_file || getpid() != g_owner_pid) return;
  SpinLockGuard guard(g_save_lock);
  g_trap_file_saved_ns.store(now, std::memory_order_relaxed);
  g_trap_set_changed.store(false, std::memory_order_relaxed);
  save_trap_file(params().trap_file, g_program, params().decay_percent);
}

// The trap file follows the trap set while the program runs, so a program
// that crashes or is killed still leaves what it learned.
void maybe_save_trap_file(uint64_t now) {
  if (!g_trap_set_changed.load(std::memory_order_relaxed)) return;
  if (now - g_trap_file_saved_ns.load(std::memory_order_relaxed) < 100 * kNsPerMs) return;
  save_trap_file_now(now);
}

// A near miss between a call of thread `other` at `time` and a call of `t`
// that thread creation or join orders: `other` made its call before it
// created `t`, or `t` joined `other` after it. The runtime sees these
// events anyway; using them spares the delays TSVD would spend learning
// what is certain.
bool ordered_by_threads(const ThreadState &t, const TsvThread &tt, Tid other, uint64_t time) {
  if (t.parent == other && time < tt.created_ns) return true;
  for (int i = 0; i < TsvThread::kMaxJoined; ++i)
    if (tt.joined[i] == other + 1 && time < tt.joined_ns[i]) return true;
  return false;
}

// Paper 000, 3.4.4: after a long silence that overlapped another thread's
// delay, this thread's next calls are ordered after the delayed site.
void infer_happens_before(TsvThread &tt, Tid me, snag_site_t site, uint64_t now) {
  uint64_t min_gap = uint64_t(params().delay_ms) * kNsPerMs * params().hb_percent / 100;
  if (snag_site_t blocker = blocking_delay(me, tt.last_call_ns, now, min_gap)) {
    tt.blocked_by = blocker;
    tt.blocked_calls = params().hb_calls;
  }
  if (tt.blocked_calls > 0 && site) {
    --tt.blocked_calls;
    mark_ordered(tt.blocked_by, site);
  }
}

void sleep_ms(uint32_t ms) {
  timespec ts = {static_cast<time_t>(ms / 1000), static_cast<long>(ms % 1000) * 1000000};
  while (raw_syscall(SYS_nanosleep, reinterpret_cast<long>(&ts), reinterpret_cast<long>(&ts)) ==
         -4 /* EINTR */) {
  }
}

// Holds the thread at its dangerous call, so a conflicting call by another
// thread can walk into the trap (paper 000, Figure 5).
void maybe_delay(TsvThread &tt, Tid me, uintptr_t object, int slot, snag_site_t site) {
  const TsvParams &p = params();
  if (!site || slot < 0 || tt.delayed_ms + p.delay_ms > p.max_thread_delay_ms) return;
  uint32_t chance = delay_chance(site, p.decay_percent);
  if (chance == 0 || next_random(tt) % 1000 >= chance) return;
  tt.delayed_ms += p.delay_ms;
  set_delayed(object, slot, true);
  int handle = delay_started(site, me, now_ns());
  sleep_ms(p.delay_ms);
  delay_ended(handle, now_ns());
  set_delayed(object, slot, false);
  if (!was_caught(object, slot)) delay_failed(site);
}

void call_begins(ThreadState &t, const Event &e) {
  TsvThread &tt = thread_data(t);
  uint64_t now = now_ns();
  Call call;
  call.site = e.site;
  call.flags = e.flags;
  call.description = static_cast<uintptr_t>(e.value);
  if (e.flags & kApiAnnotated) call.inner_site = e.addr2;
  call.thread = t.tid;
  call.concurrent = in_concurrent_phase(tt, t.tid, now);
  infer_happens_before(tt, t.tid, call.site, now);
  tt.last_call_ns = now;

  // Annotated members name the depth of their caller's frame (e.size).
  uint32_t depth = (e.flags & kApiAnnotated) ? e.size : t.shadow.depth;
  CallStart start;
  start_call(e.addr, call, t, depth, now, uint64_t(params().near_miss_ms) * kNsPerMs,
             params().near_miss_calls, &start);
  if (tt.open_count < TsvThread::kMaxOpen) tt.open[tt.open_count] = {e.addr, start.slot};
  ++tt.open_count;

  for (int i = 0; i < start.near_miss_count; ++i) {
    const CallStart::NearMiss &miss = start.near_misses[i];
    if (ordered_by_threads(t, tt, miss.thread, miss.time)) continue;
    if (add_dangerous_pair(miss.site, call.site))
      g_trap_set_changed.store(true, std::memory_order_relaxed);
  }

  if (start.conflict_count > 0) {
    ShadowStack context;
    context.depth = depth;
    context.frames = t.shadow.frames;
    auto *stack = static_cast<StackTrace *>(internal_alloc(sizeof(StackTrace)));
    capture_stack(context, call.site, stack);
    for (int i = 0; i < start.conflict_count; ++i) {
      const Conflict &c = start.conflicts[i];
      // One report per pair of sites and run; unknown sites always report.
      if (!call.site || !c.other.site || mark_found(call.site, c.other.site)) {
        report_violation(e.addr, call, *stack, c);
        g_trap_set_changed.store(true, std::memory_order_relaxed);
      }
    }
    internal_free(stack);
  }
  maybe_save_trap_file(now);
  maybe_delay(tt, t.tid, e.addr, start.slot, call.site);
}

// Calls nest, so the call ending is normally the innermost one; it is
// looked up by object in case a call began before the engine saw the
// thread or ended without its hook.
void call_ends(ThreadState &t, const Event &e) {
  TsvThread &tt = thread_data(t);
  if (tt.open_count > TsvThread::kMaxOpen) {  // deeper than tracked: untracked
    --tt.open_count;
    return;
  }
  for (uint32_t i = tt.open_count; i-- > 0;) {
    if (tt.open[i].object != e.addr) continue;
    if (tt.open[i].slot >= 0) end_call(e.addr, tt.open[i].slot);
    for (uint32_t j = i + 1; j < tt.open_count; ++j) tt.open[j - 1] = tt.open[j];
    --tt.open_count;
    return;
  }
}

// The file name of the running program, for the trap file's program line.
void note_program_name() {
  static char name[256];
  ssize_t n = readlink("/proc/self/exe", name, sizeof name - 1);
  if (n <= 0) return;
  name[n] = 0;
  const char *base = name;
  for (const char *p = name; *p; ++p)
    if (*p == '/') base = p + 1;
  g_program = base;
}

class TsvEngine final : public Engine {
 public:
  TsvEngine() { wants_api_calls = true; }

  const char *name() const override { return "tsv"; }

  void on_start(ThreadState &main_thread) override {
    load_params();
    g_owner_pid = getpid();
    note_program_name();
    if (params().trap_file) load_trap_file(params().trap_file);
    thread_data(main_thread);
  }

  Verdict on_event(ThreadState &t, const Event &e) override {
    switch (e.kind) {
      case EventKind::kApiBegin:
        call_begins(t, e);
        break;
      case EventKind::kApiEnd:
        call_ends(t, e);
        break;
      case EventKind::kThreadCreate:
        // In the parent, before the child exists: what the parent did so
        // far happens before everything the child does.
        if (ThreadState *child = thread_by_tid(static_cast<Tid>(e.value)))
          thread_data(*child).created_ns = now_ns();
        break;
      case EventKind::kThreadStart:
        thread_data(t).last_call_ns = now_ns();
        break;
      case EventKind::kThreadJoin: {
        TsvThread &tt = thread_data(t);
        uint32_t i = tt.joined_next++ % TsvThread::kMaxJoined;
        tt.joined[i] = static_cast<Tid>(e.value) + 1;
        tt.joined_ns[i] = now_ns();
        break;
      }
      case EventKind::kThreadExit:
        internal_free(t.engine_data[kTsvSlot]);
        t.engine_data[kTsvSlot] = nullptr;
        break;
      default:
        break;
    }
    return {};
  }

  void on_exit(int) override { save_trap_file_now(now_ns()); }
};

}  // namespace

}  // namespace snag::tsv

namespace snag {
Engine *create_tsv_engine() {
  static tsv::TsvEngine engine;
  return &engine;
}
}  // namespace snag
