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
  int slot;  // its registration on the object (object_table.h); -1: not registered
};

// Times are now_ms() values; epochs count thread creations and joins.
struct TsvThread {
  uint32_t created_epoch;    // the epoch its parent created it in
  uint32_t last_call_ms;     // when its previous TSVD call started (or it started)
  snag_site_t blocked_by;    // the delayed site its recent silence followed
  uint32_t blocked_calls;    // calls left that happen after `blocked_by`
  uint32_t delayed_ms;       // delay injected into this thread so far
  uint32_t phase_ms;         // the millisecond it last looked at the phase history
  bool phase_concurrent;     // what it saw then
  uint64_t random;           // xorshift state
  static constexpr int kMaxOpen = 32;
  uint32_t open_count;       // may exceed kMaxOpen; deeper calls are untracked
  OpenCall open[kMaxOpen];
  // The calls it made in the current clock tick, by a hash of (object,
  // site, access): one of them again in the same tick finds no new near
  // miss, so it skips the search (a loop of calls costs a few loads).
  static constexpr int kSeen = 32;
  uint32_t seen_tick;
  uint64_t seen[kSeen];
  // The threads it joined most recently (id + 1; 0: none), and the epochs
  // the joins started.
  static constexpr int kMaxJoined = 8;
  uint32_t joined_next;
  Tid joined[kMaxJoined];
  uint32_t joined_epoch[kMaxJoined];
};

// The concurrent-phase history (paper 000, 3.4.3): the threads that made the
// latest TSVD calls. A thread writes its id at most once per millisecond, so
// the history costs nearly nothing when one thread calls in a tight loop.
constexpr uint32_t kMaxPhase = 64;
std::atomic<uint32_t> g_phase_next;
std::atomic<Tid> g_phase[kMaxPhase];

// The program's name for the trap file, and the process that owns the file:
// it rewrites it compactly at start and exit; every process (a forked child
// too) appends what it learns as it learns it.
int g_owner_pid;
const char *g_program = "program";

// Epochs order calls against thread creations and joins exactly, where the
// coarse clock cannot: each creation and join starts a new epoch, and a
// call records the epoch it was made in.
std::atomic<uint32_t> g_epoch;

TsvThread &thread_data(ThreadState &t) {
  auto *tt = static_cast<TsvThread *>(t.engine_data[kTsvSlot]);
  if (SNAG_UNLIKELY(!tt)) {
    tt = static_cast<TsvThread *>(internal_alloc(sizeof(TsvThread)));
    tt->last_call_ms = now_ms();
    tt->random = (run_seed() + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t(t.tid) + 1) * 0xbf58476d1ce4e5b9ull;
    if (!tt->random) tt->random = 1;
    t.engine_data[kTsvSlot] = tt;
  }
  return *tt;
}

// A thread's data goes at its exit, and again when the core has the engine
// forget it: container calls in its thread_local destructors, which run after
// the exit event, make it anew, and a record with data is never reused.
void drop_thread_data(ThreadState &t) {
  internal_free(t.engine_data[kTsvSlot]);
  t.engine_data[kTsvSlot] = nullptr;
}

uint32_t next_random(TsvThread &tt) {
  uint64_t x = tt.random;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  tt.random = x;
  return static_cast<uint32_t>(x >> 32);
}

// Looked at once per millisecond per thread: a thread calling in a tight
// loop reads and writes the shared history rarely.
bool in_concurrent_phase(TsvThread &tt, Tid me, uint32_t now) {
  uint32_t ms = now + 1;  // 0: never looked
  if (tt.phase_ms == ms) return tt.phase_concurrent;
  tt.phase_ms = ms;
  uint32_t n = params().phase_calls;
  g_phase[g_phase_next.fetch_add(1, std::memory_order_relaxed) % n].store(
      me + 1, std::memory_order_relaxed);
  // Store, fence, load on each side: of two threads starting their first
  // calls at the same instant, at least one sees the other and counts as
  // concurrent (without it both could see an empty history and a real near
  // miss was dropped).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  tt.phase_concurrent = false;
  for (uint32_t i = 0; i < n; ++i) {
    Tid other = g_phase[i].load(std::memory_order_relaxed);
    if (other != 0 && other != me + 1) tt.phase_concurrent = true;
  }
  return tt.phase_concurrent;
}

void rewrite_trap_file() {
  if (params().trap_file && getpid() == g_owner_pid) save_trap_file(params().trap_file, g_program);
}

void learned_dangerous(snag_site_t a, snag_site_t b) {
  if (add_dangerous_pair(a, b) && params().trap_file) append_trap_pair(a, b, true);
}

void learned_ordered(snag_site_t a, snag_site_t b) {
  if (mark_ordered(a, b) && params().trap_file) append_trap_pair(a, b, false);
}

// Whether epoch `a` came before epoch `b`, both modulo 2^kNearMissEpochBits
// as near misses carry them.
bool epoch_before(uint32_t a, uint32_t b) {
  uint32_t distance = (b - a) & ((1u << kNearMissEpochBits) - 1);
  return distance != 0 && distance < (1u << (kNearMissEpochBits - 1));
}

// A near miss between a call of thread `other` (its id, truncated) in
// `epoch` and a call of `t` that thread creation or join orders: `other`
// made its call before it created `t`, or `t` joined `other` after it. The
// runtime sees these events anyway; using them spares the delays TSVD would
// spend learning what is certain.
bool ordered_by_threads(const ThreadState &t, const TsvThread &tt, Tid other, uint32_t epoch) {
  constexpr Tid kMask = (1u << kNearMissThreadBits) - 1;
  if ((t.parent & kMask) == other && epoch_before(epoch, tt.created_epoch)) return true;
  for (int i = 0; i < TsvThread::kMaxJoined; ++i)
    if (tt.joined[i] && ((tt.joined[i] - 1) & kMask) == other &&
        epoch_before(epoch, tt.joined_epoch[i]))
      return true;
  return false;
}

// Paper 000, 3.4.4: after a long silence that overlapped another thread's
// delay, this thread's next calls are ordered after the delayed site.
void infer_happens_before(TsvThread &tt, Tid me, snag_site_t site, uint32_t now) {
  uint32_t min_gap = params().delay_ms * params().hb_percent / 100;
  if (snag_site_t blocker = blocking_delay(me, tt.last_call_ms, now, min_gap)) {
    tt.blocked_by = blocker;
    tt.blocked_calls = params().hb_calls;
  }
  if (tt.blocked_calls > 0 && site) {
    --tt.blocked_calls;
    learned_ordered(tt.blocked_by, site);
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
void maybe_delay(TsvThread &tt, Tid me, uintptr_t object, int slot, snag_site_t site,
                 uint32_t chance) {
  const TsvParams &p = params();
  if (slot < 0 || tt.delayed_ms + p.delay_ms > p.max_thread_delay_ms) return;
  if (next_random(tt) % 1000 >= chance) return;
  tt.delayed_ms += p.delay_ms;
  set_delayed(object, slot, true);
  int handle = delay_started(site, me, now_ms());
  sleep_ms(p.delay_ms);
  delay_ended(handle, now_ms());
  set_delayed(object, slot, false);
  if (!was_caught(object, slot)) delay_failed(site);
}

// Whether the thread made this call (object, site, access) earlier in the
// tick `now`; remembers it.
bool seen_this_tick(TsvThread &tt, uintptr_t object, const Call &call, uint32_t now) {
  if (tt.seen_tick != now + 1) {
    tt.seen_tick = now + 1;
    fill_bytes(tt.seen, 0, sizeof tt.seen);
  }
  uint64_t key = (uint64_t(object) * 0x9e3779b97f4a7c15ull) ^ call.site ^ call.write();
  key |= 1;  // never 0, the empty slot
  uint64_t &slot = tt.seen[(key >> 40) % TsvThread::kSeen];
  if (slot == key) return true;
  slot = key;
  return false;
}

// Everything else about a call that starts: near misses, conflicts, a
// delay. `depth` is the shadow-stack depth of the call's context.
void call_begins_slowly(ThreadState &t, TsvThread &tt, uintptr_t object, Call &call,
                        uint32_t depth, uint32_t now, uint32_t chance, bool seen) {
  RuntimeScope scope(&t);
  call.concurrent = in_concurrent_phase(tt, t.tid, now);
  call.epoch = g_epoch.load(std::memory_order_relaxed);
  infer_happens_before(tt, t.tid, call.site, now);

  CallStart start;
  start_call(object, call, t, depth, now, params().near_miss_ms, chance > 0, !seen, &start);
  tt.open[tt.open_count - 1].slot = start.slot;

  for (int i = 0; i < start.near_miss_count; ++i) {
    const CallStart::NearMiss &miss = start.near_misses[i];
    if (!ordered_by_threads(t, tt, miss.thread, miss.epoch)) learned_dangerous(miss.site, call.site);
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
      if (!call.site || !c.other.site || mark_found(call.site, c.other.site))
        report_violation(object, call, *stack, c);
    }
    internal_free(stack);
  }
  if (chance > 0) maybe_delay(tt, t.tid, object, start.slot, call.site, chance);
}

// A TSVD point starts. The common case — the thread made this very call
// earlier in this clock tick, at a site no dangerous pair includes, on an
// object with no call registered — costs a few loads and no shared write.
void call_begins(ThreadState &t, uintptr_t object, Call &call, uint32_t depth) {
  TsvThread &tt = thread_data(t);
  uint32_t now = now_ms();
  if (tt.open_count < TsvThread::kMaxOpen) tt.open[tt.open_count] = {object, -1};
  ++tt.open_count;
  // Calls at dangerous sites are registered (traps), delayed or not.
  uint32_t chance = call.site ? delay_chance(call.site, params().decay_percent) : 0;
  bool seen = seen_this_tick(tt, object, call, now);
  bool quiet = seen && chance == 0 && tt.blocked_calls == 0 && !has_registered_calls(object);
  if (SNAG_LIKELY(quiet) || tt.open_count > TsvThread::kMaxOpen) {
    tt.last_call_ms = now;
    return;
  }
  call_begins_slowly(t, tt, object, call, depth, now, chance, seen);
  tt.last_call_ms = now;
}

void api_begin_hook(ThreadState &t, uintptr_t object, uint32_t flags, snag_site_t site) {
  Call call;
  call.site = site;
  call.flags = flags;
  call.thread = t.tid;
  call_begins(t, object, call, t.shadow.depth);
}

// Libc calls and annotated members: with a description, and annotations
// name the depth of their caller's frame (e.size) and the annotation's own
// site (e.addr2).
void call_begins(ThreadState &t, const Event &e) {
  Call call;
  call.site = e.site;
  call.flags = e.flags;
  call.description = static_cast<uintptr_t>(e.value);
  if (e.flags & kApiAnnotated) call.inner_site = e.addr2;
  call.thread = t.tid;
  call_begins(t, e.addr, call, (e.flags & kApiAnnotated) ? e.size : t.shadow.depth);
}

// Calls nest, so the call ending is normally the innermost one; it is
// looked up by object in case a call began before the engine saw the
// thread or ended without its hook.
void call_ends(ThreadState &t, uintptr_t object) {
  TsvThread &tt = thread_data(t);
  if (tt.open_count > TsvThread::kMaxOpen) {  // deeper than tracked: untracked
    --tt.open_count;
    return;
  }
  uint32_t top = tt.open_count - 1;
  if (SNAG_LIKELY(tt.open_count > 0 && tt.open[top].object == object && tt.open[top].slot < 0)) {
    tt.open_count = top;
    return;
  }
  for (uint32_t i = tt.open_count; i-- > 0;) {
    if (tt.open[i].object != object) continue;
    if (tt.open[i].slot >= 0) {
      RuntimeScope scope(&t);
      end_call(object, tt.open[i].slot);
    }
    for (uint32_t j = i + 1; j < tt.open_count; ++j) tt.open[j - 1] = tt.open[j];
    --tt.open_count;
    return;
  }
}

void api_end_hook(ThreadState &t, uintptr_t object, uint32_t, snag_site_t) { call_ends(t, object); }

class TsvEngine final : public Engine {
 public:
  TsvEngine() {
    wants_api_calls = true;
    api_begin_hook = tsv::api_begin_hook;
    api_end_hook = tsv::api_end_hook;
  }

  const char *name() const override { return "tsv"; }

  void on_start(ThreadState &main_thread) override {
    load_params();
    g_owner_pid = getpid();
    g_program = program_file_name(g_program);
    if (params().trap_file) load_trap_file(params().trap_file);
    rewrite_trap_file();
    thread_data(main_thread);
  }

  Verdict on_event(ThreadState &t, const Event &e) override {
    switch (e.kind) {
      case EventKind::kApiBegin:
        call_begins(t, e);
        break;
      case EventKind::kApiEnd:
        call_ends(t, e.addr);
        break;
      case EventKind::kThreadCreate:
        // In the parent, before the child exists: what the parent did so
        // far happens before everything the child does.
        if (ThreadState *child = thread_by_tid(static_cast<Tid>(e.value)))
          thread_data(*child).created_epoch = g_epoch.fetch_add(1) + 1;
        break;
      case EventKind::kThreadStart:
        thread_data(t).last_call_ms = now_ms();
        break;
      case EventKind::kThreadJoin: {
        TsvThread &tt = thread_data(t);
        uint32_t i = tt.joined_next++ % TsvThread::kMaxJoined;
        tt.joined[i] = static_cast<Tid>(e.value) + 1;
        tt.joined_epoch[i] = g_epoch.fetch_add(1) + 1;
        break;
      }
      case EventKind::kThreadExit:
        drop_thread_data(t);
        break;
      default:
        break;
    }
    return {};
  }

  void forget_thread(ThreadState &ended) override { drop_thread_data(ended); }

  void on_exit(int) override { rewrite_trap_file(); }
};

}  // namespace

}  // namespace snag::tsv

namespace snag {
Engine *create_tsv_engine() {
  static tsv::TsvEngine engine;
  return &engine;
}
}  // namespace snag
