// The `learn`, `guard` and `expose` engines (docs/guard.md): paper 003's
// anticipating invariants. One engine in three modes:
//
//   learn   records, for every access site S, the remote predecessors seen
//           (BSet(S)), and writes them to learn_out at exit for `snag learn`
//           to merge into the invariants file. Given invariants= as well it
//           also reports the accesses whose predecessor was not in them,
//           without stalling (check-only, for `snag learn --relax`).
//   guard   before each access at a site the invariants know, checks that
//           its remote predecessor is in BSet(S); when it is not, stalls the
//           thread in stall_ms steps, re-checking, for at most max_stall_ms,
//           then reports the violation (tolerated or not) and lets it run.
//           A stall always ends, so guard never deadlocks.
//   expose  paper 003's Algorithm 3: for each S whose BSet is one site P that
//           never follows S, holds P's thread before P (or before the
//           outermost lock it held at P) until S has run or a cap passed, and
//           reports the order violations this reveals.
#include <unistd.h>

#include "core/engine.h"
#include "core/findings.h"
#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/platform.h"
#include "core/runtime.h"
#include "core/sites.h"
#include "core/text_buffer.h"
#include "engines/guard/expose.h"
#include "engines/guard/guard_report.h"
#include "engines/guard/guard_state.h"
#include "engines/guard/invariants_io.h"
#include "engines/guard/recorder.h"
#include "engines/guard/site_pairs.h"

namespace snag::guard {

namespace {

// (S, RPre) violations already reported, so a loop reports once; `extra`
// counts the stalls of the pair that ended at the cap.
SitePairs g_reported;
// A pair whose stall ran to the cap this often is not stalled again in the
// run: a stall that never resolves is an order learning missed far more
// often than a bug, and stalling it at every occurrence would turn a hot
// loop into a sleep. It stays reported.
constexpr uint64_t kMaxCappedStalls = 3;

// Multi-variable invariants: address ranges guarded as one variable (the
// coloring of ColorSafe that paper 003, 5.2.5, proposes).
struct Color {
  uintptr_t begin, end, as;
};
constexpr int kMaxColors = 64;
Color g_colors[kMaxColors];
std::atomic<int> g_color_count{0};

struct GuardThread {
  uint32_t lock_depth;
  snag_site_t outer_lock_site;  // where the outermost lock held was taken
  // Stacks captured lately, by (site, depth, caller): a loop body's few
  // sites reuse theirs instead of copying and interning the stack each time
  // (frames further out are taken to be the same when the caller and the
  // depth are).
  static constexpr int kStacks = 32;
  struct CachedStack {
    snag_site_t site;
    snag_site_t caller;
    uint32_t depth;
    StackId id;
  } stacks[kStacks];
  // Orders already found allowed, by (site, remote predecessor): BSets do
  // not change during a run, so a loop's few orders are looked up once.
  static constexpr int kVerdicts = 16;
  struct Verdict {
    snag_site_t site;
    snag_site_t remote;
  } allowed[kVerdicts];
  // Learn: access counts per site, gathered here and added to the shared
  // table when a slot is taken by another site and at thread exit.
  static constexpr int kCounts = 64;
  snag_site_t count_site[kCounts];
  uint64_t count[kCounts];
};

GuardThread &thread_data(ThreadState &t) {
  auto *g = static_cast<GuardThread *>(t.engine_data[kGuardSlot]);
  if (SNAG_UNLIKELY(!g)) {
    g = static_cast<GuardThread *>(internal_alloc(sizeof(GuardThread)));
    t.engine_data[kGuardSlot] = g;
  }
  return *g;
}

void flush_count(snag_site_t site, uint64_t n) {
  if (!site || !n) return;
  if (SitePairs::Entry *e = g_learned.insert(site, kFactCount))
    e->extra.fetch_add(n, std::memory_order_relaxed);
}

void flush_counts(GuardThread &g) {
  for (int i = 0; i < GuardThread::kCounts; ++i) {
    flush_count(g.count_site[i], g.count[i]);
    g.count_site[i] = 0;
    g.count[i] = 0;
  }
}

// A thread's data goes at its exit, and again when the core has the engine
// forget it: its thread_local destructors run after the exit event, and their
// locks and accesses make the data anew. Learning keeps the counts in it.
void drop_thread_data(ThreadState &t, Mode mode) {
  auto *g = static_cast<GuardThread *>(t.engine_data[kGuardSlot]);
  if (!g) return;
  if (mode == Mode::kLearn) flush_counts(*g);
  internal_free(g);
  t.engine_data[kGuardSlot] = nullptr;
}

SNAG_ALWAYS_INLINE void count_access(GuardThread &g, snag_site_t site) {
  int i = static_cast<int>((site * 0x9e3779b97f4a7c15ull) >> 58);
  if (SNAG_UNLIKELY(g.count_site[i] != site)) {
    flush_count(g.count_site[i], g.count[i]);
    g.count_site[i] = site;
    g.count[i] = 0;
  }
  ++g.count[i];
}

StackId current_stack(ThreadState &t, GuardThread &g, snag_site_t site) {
  const ShadowStack &shadow = t.shadow;
  snag_site_t caller = shadow.depth > 0 && shadow.depth <= ShadowStack::kCapacity && shadow.frames
                           ? shadow.frames[shadow.depth - 1].call_site
                           : 0;
  uint64_t key = (site ^ caller * 0x9e3779b97f4a7c15ull) + shadow.depth;
  GuardThread::CachedStack &c = g.stacks[(key * 0xbf58476d1ce4e5b9ull) >> 59];
  if (c.id && c.site == site && c.depth == shadow.depth && c.caller == caller) return c.id;
  StackTrace trace;
  capture_stack(shadow, site, &trace);
  c = {site, caller, shadow.depth, depot_put(trace)};
  return c.id;
}

uintptr_t color_of(uintptr_t addr, bool *colored) {
  int n = g_color_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    if (addr >= g_colors[i].begin && addr < g_colors[i].end) {
      *colored = true;
      return g_colors[i].as;
    }
    // The variable the others are guarded as is one of the group too.
    if (granule_of(addr) == granule_of(g_colors[i].as)) *colored = true;
  }
  return addr;
}

// Whether `remote` may precede an access at `site`: BSet(site) has it, or
// the invariants know nothing of the site (nothing to check against).
bool allowed(snag_site_t site, snag_site_t remote) {
  if (remote == kUnknownSite || !g_bsets.contains(site, kFactSummary)) return true;
  return g_bsets.contains(site, remote);
}

// allowed(), remembered per thread.
bool allowed_cached(GuardThread &g, snag_site_t site, snag_site_t remote) {
  uint64_t key = (site ^ (remote * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
  GuardThread::Verdict &v = g.allowed[key >> 60];
  if (v.site == site && v.remote == remote && site) return true;
  if (!allowed(site, remote)) return false;
  v = {site, remote};
  return true;
}

// A learned predecessor of `site` for the report: one that is not `remote`,
// preferring one in the same function as `remote` (the end of its region).
void learned_predecessors(snag_site_t site, snag_site_t remote, snag_site_t *expected,
                          snag_site_t *region_end) {
  *expected = *region_end = 0;
  SitePairs::Entry *summary = g_bsets.find(site, kFactSummary);
  if (!summary) return;
  SiteInfo remote_info;
  bool known = remote && find_site(remote, &remote_info);
  for (uint64_t next = summary->extra.load(std::memory_order_relaxed); next;) {
    SitePairs::Entry &member = g_bsets.at(next - 1);
    next = member.extra.load(std::memory_order_relaxed);
    if (!member.value || member.value == remote) continue;
    if (!*expected) *expected = member.value;
    SiteInfo info;
    if (!*region_end || (known && find_site(member.value, &info) &&
                         info.function.size == remote_info.function.size &&
                         __builtin_memcmp(info.function.data, remote_info.function.data,
                                          info.function.size) == 0))
      *region_end = member.value;
  }
}

void report(ThreadState &t, Violation &v) {
  bool added = false;
  g_reported.insert(v.current.site, v.remote.site ? v.remote.site : kFactSummary, &added);
  if (!added) return;  // once per pair of sites and run
  learned_predecessors(v.current.site, v.remote.site, &v.expected, &v.region_end);
  capture_stack(t.shadow, v.current.site, &v.current_stack);
  report_violation(v);
}

// Everything an access does when its slot changes: the check, a stall,
// learning, the update.
SNAG_NOINLINE void access_slowly(ThreadState &t, uintptr_t addr, bool write, snag_site_t site,
                                 uintptr_t granule, bool colored) {
  RuntimeScope scope(&t);
  GuardThread &g = thread_data(t);
  __snag_guard_tid = t.tid + 1;  // for the inlined check of lean builds
  Accessor me;
  me.site = site;
  me.thread = t.tid + 1;
  me.write = write;
  if (g_params.mode != Mode::kLearn || g_checking) me.stack = current_stack(t, g, site);

  Slot *s = &lock_slot(granule);
  Accessor remote = remote_predecessor(*s, me.thread);
  if (g_params.mode == Mode::kLearn) {
    Accessor local = local_predecessor(*s, me.thread);
    if (remote.site != kUnknownSite) g_learned.insert(site, remote.site);
    if (local.site && local.site != site && !g_edges.contains(site, local.site))
      g_edges.insert(site, local.site);
    if (remote.site && remote.site != kUnknownSite && !g_edges.contains(site, remote.site))
      g_edges.insert(site, remote.site);
    if (g.lock_depth > 0 && !g_learned.contains(site, kFactLock))
      if (SitePairs::Entry *e = g_learned.insert(site, kFactLock))
        e->extra.store(g.outer_lock_site, std::memory_order_relaxed);
  }
  if (!g_checking || allowed_cached(g, site, remote.site)) {
    record_access(*s, me);
    unlock_slot(*s, granule);
    return;
  }
  unlock_slot(*s, granule);

  Violation v;
  v.address = addr;
  v.colored = colored;
  v.current = me;
  v.remote = remote;
  SitePairs::Entry *pair = g_reported.find(site, remote.site ? remote.site : kFactSummary);
  bool worn_out = pair && pair->extra.load(std::memory_order_relaxed) >= kMaxCappedStalls;
  if (g_params.mode == Mode::kGuard && g_params.max_stall_ms > 0 && !worn_out) {
    // Paper 003, Algorithm 1: stall and re-check until the order is a
    // learned one or the cap has passed. No lock is held while stalled.
    v.stalled = true;
    v.mode = "guard";
    g_stalls.fetch_add(1, std::memory_order_relaxed);
    g_stalling.fetch_add(1, std::memory_order_relaxed);
    while (v.stalled_ms < g_params.max_stall_ms) {
      uint32_t step = g_params.stall_ms;
      if (step > g_params.max_stall_ms - v.stalled_ms) step = g_params.max_stall_ms - v.stalled_ms;
      sleep_ms(step);
      v.stalled_ms += step;
      s = &lock_slot(granule);
      Accessor now = remote_predecessor(*s, me.thread);
      unlock_slot(*s, granule);
      if (allowed(site, now.site)) {
        v.tolerated = true;
        v.resolved_by = now.site;
        break;
      }
    }
    g_stalling.fetch_sub(1, std::memory_order_relaxed);
  } else if (worn_out) {
    v.mode = "guard";
  } else {
    v.mode = g_params.mode == Mode::kExpose ? "expose" : "check";
  }
  report(t, v);
  if (v.stalled && !v.tolerated)
    if (SitePairs::Entry *p = pair ? pair : g_reported.find(site, remote.site ? remote.site : kFactSummary))
      p->extra.fetch_add(1, std::memory_order_relaxed);
  s = &lock_slot(granule);
  record_access(*s, me);
  unlock_slot(*s, granule);
}

SNAG_ALWAYS_INLINE void access_one(ThreadState &t, uintptr_t addr, bool write, snag_site_t site) {
  bool colored = false;
  if (SNAG_UNLIKELY(g_color_count.load(std::memory_order_relaxed) != 0)) addr = color_of(addr, &colored);
  uintptr_t granule = granule_of(addr);
  if (SNAG_LIKELY(unchanged(slot_of(granule), granule, t.tid + 1, site))) return;
  access_slowly(t, addr, write, site, granule, colored);
}

void access_range(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site) {
  // Up to 8 granules of a memcpy/memset: enough for the fields of a struct.
  uintptr_t end = addr + (size < 64 ? size : 64);
  for (uintptr_t a = addr & ~uintptr_t{7}; a < end; a += 8) access_one(t, a, write, site);
}

void guard_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site) {
  bool write = flags & kAccessWrite;
  if (SNAG_UNLIKELY(flags & kAccessRange)) return access_range(t, addr, size, write, site);
  access_one(t, addr, write, site);
}

void learn_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site) {
  count_access(thread_data(t), site);
  guard_hook(t, addr, size, flags, site);
}

void expose_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site) {
  if (SNAG_UNLIKELY(g_expose.find(site, kFactStallFor) != nullptr)) expose_stall_point(t, site);
  guard_hook(t, addr, size, flags, site);
  expose_site_ran(site);
}

class GuardEngine final : public Engine {
 public:
  GuardEngine(const char *name, Mode mode) : name_(name), mode_(mode) {}

  const char *name() const override { return name_; }

  void on_start(ThreadState &main_thread) override {
    const Options &o = options();
    g_params.mode = mode_;
    g_params.invariants = o.text("invariants");
    g_params.learn_out = o.text("learn_out");
    g_params.stall_ms = uint32_t(o.number("stall_ms"));
    g_params.max_stall_ms = uint32_t(o.number("max_stall_ms"));
    g_params.expose_stall_ms = uint32_t(o.number("expose_stall_ms"));
    g_owner_pid = getpid();
    g_program = program_file_name(g_program);
    recorder_init();
    g_bsets.init(20);
    g_reported.init(16);
    if (mode_ == Mode::kLearn) {
      g_learned.init(20);
      g_edges.init(20);
    }
    if (mode_ == Mode::kExpose) g_expose.init(14);
    if (g_params.invariants) g_checking = load_invariants(g_params.invariants);
    else if (mode_ != Mode::kLearn) print_error("guard: no invariants= file given; nothing to check");
    if (mode_ == Mode::kExpose && g_checking) plan_stall_points();
    access_hook = mode_ == Mode::kLearn ? learn_hook : mode_ == Mode::kExpose ? expose_hook : guard_hook;
    thread_data(main_thread);
  }

  Verdict on_event(ThreadState &t, const Event &e) override {
    switch (e.kind) {
      case EventKind::kLockBefore:
        if (mode_ == Mode::kExpose && thread_data(t).lock_depth == 0 && e.site)
          expose_stall_point(t, e.site);
        break;
      case EventKind::kLockAcquired: {
        GuardThread &g = thread_data(t);
        if (g.lock_depth++ == 0) g.outer_lock_site = e.site;
        break;
      }
      case EventKind::kUnlock: {
        GuardThread &g = thread_data(t);
        if (g.lock_depth > 0) --g.lock_depth;
        break;
      }
      case EventKind::kThreadExit:
        drop_thread_data(t, mode_);
        break;
      default:
        break;
    }
    return {};
  }

  void forget_thread(ThreadState &ended) override { drop_thread_data(ended, mode_); }

  void on_exit(int) override {
    if (mode_ != Mode::kLearn) return;
    if (ThreadState *t = t_current)
      if (GuardThread *g = static_cast<GuardThread *>(t->engine_data[kGuardSlot])) flush_counts(*g);
    // Threads that ended but were not joined: what their thread_local
    // destructors counted. (Threads still running are left alone.)
    for (Tid tid = 0; tid < thread_count(); ++tid)
      if (ThreadState *ended = thread_by_tid(tid); ended && ended != t_current &&
                                                   (ended->end_marks.load(std::memory_order_acquire) & kEnded))
        if (GuardThread *g = static_cast<GuardThread *>(ended->engine_data[kGuardSlot])) flush_counts(*g);
    write_learned();
  }

 private:
  const char *name_;
  Mode mode_;
};

}  // namespace

}  // namespace snag::guard

using namespace snag;

// How many stalls guard and expose have started in this process; 0 under
// any other engine. For test programs that park a thread to force a rare
// interleaving (tests/guard/suite/guard_test.h): a parked thread stands for
// a thread the OS preempted, which a stall of the other thread lets run.
SNAG_INTERFACE unsigned long __snag_guard_stalls() {
  return guard::g_stalls.load(std::memory_order_relaxed);
}

// How many threads guard or expose holds right now (a stall that began
// before a thread parked releases it too).
SNAG_INTERFACE int __snag_guard_stalling() { return guard::g_stalling.load(std::memory_order_relaxed); }

// Accesses to [addr, addr+size) count as accesses to `as` (include/snag/annotations.h).
SNAG_INTERFACE void snag_annotate_guard_same_variable(const volatile void *addr, size_t size,
                                                      const volatile void *as) {
  int i = guard::g_color_count.load(std::memory_order_relaxed);
  if (i >= guard::kMaxColors) return;
  guard::g_colors[i] = {reinterpret_cast<uintptr_t>(addr), reinterpret_cast<uintptr_t>(addr) + size,
                        reinterpret_cast<uintptr_t>(as)};
  guard::g_color_count.store(i + 1, std::memory_order_release);
}

namespace snag {
Engine *create_learn_engine() {
  static guard::GuardEngine engine("learn", guard::Mode::kLearn);
  return &engine;
}
Engine *create_guard_engine() {
  static guard::GuardEngine engine("guard", guard::Mode::kGuard);
  return &engine;
}
Engine *create_expose_engine() {
  static guard::GuardEngine engine("expose", guard::Mode::kExpose);
  return &engine;
}
}  // namespace snag
