// The functions the compiler pass calls (include/snag/abi.h). The access
// hooks are the hottest code in the runtime: the race engine's inlined fast
// path first (a few loads and a compare when nothing changes), then one
// branch when no engine wants accesses, otherwise one call into the engine.
//
// Departure from "engines only see events through the core": the race
// engine's fast path is compiled into the hooks, because a call per access is
// what it exists to avoid. It is read-only and off unless race is the only
// engine that wants accesses (engines/race/fast_path.h).
#include "core/api_calls.h"
#include "core/runtime.h"
#include "core/sites.h"
#include "engines/race/fast_path.h"
#include "snag/abi.h"

namespace snag {
namespace {

// The engine's part of the miss path. The fast path's out-of-line answers
// are not asked here: the fast path is on only while the race engine's
// on_access is the hook, and on_access asks them itself (for its callers
// that bypass these hooks too). With a word seen (the fast path was on)
// the race engine's renewal comes first (an Exclusive granule or block
// that stays Exclusive: its owner in a new epoch, a lock-ordered hand-off),
// without on_access's call chain, which would find the word again; it
// calls the hook itself when the renewal does not apply
// (race::renew_after_fast_path). Only tail calls but for a thread's
// first access (current_thread adopts it): two registers saved, not six.
SNAG_ALWAYS_INLINE void engine_after_fast_path(void *addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                               uint64_t seen) {
  AccessHook hook = g_access_hook;
  if (SNAG_UNLIKELY(!hook)) return;
  ThreadState *t = current_thread();
  if (SNAG_UNLIKELY(t->in_runtime | ((flags & kAccessWrite) ? t->ignore_writes : t->ignore_reads)))
    return;
  if (seen) return race::renew_after_fast_path(*t, reinterpret_cast<uintptr_t>(addr), size, flags, site, seen);
  hook(*t, reinterpret_cast<uintptr_t>(addr), size, flags | kAccessQuickAsked, site);
}

// engine_after_fast_path out of line, for split_after_fast_path's tail call.
__attribute__((noinline)) void engine_after_split(void *addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                                 uint64_t seen) {
  engine_after_fast_path(addr, size, flags, site, seen);
}

// A split granule's bytes, answered before the engine's call chain. Its
// loop kept out of access_after_fast_path, which otherwise saved six
// registers on every miss (pipeline: ~11 million renewals). The engine's
// part is a tail call of its own function, not inlined here: inlined, its
// call of thread_adopt_current gave this function a frame of six saved
// registers, paid by every answer (task_graph: 6.2 million split-granule
// accesses, all but 18 thousand answered here).
__attribute__((noinline)) void split_after_fast_path(void *addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                                    uint64_t seen) {
  if (race::split_word_needs_no_work(seen, reinterpret_cast<uintptr_t>(addr), size, flags & kAccessWrite))
    return;
  engine_after_split(addr, size, flags, site, seen);
}

// An untouched granule (the inlined fast path saw a Virgin word) of a coarse
// block's whole page -- a block of kWordsWrittenBelow or more keeps such
// granules' words unwritten -- answered by its page's block before the
// engine's call chain, where on_access would ask three other shortcuts
// first (thread_local_heavy: its unordered_maps' bucket arrays and scratch
// vectors, a million reads pushed out of the remembered blocks by the nodes
// each lookup walks). Out of line of access_after_fast_path, as
// split_after_fast_path, which keeps that one without a frame.
__attribute__((noinline)) void untouched_after_hint(void *addr, uintptr_t size, uint32_t flags, snag_site_t site) {
  if (race::untouched_access_needs_no_work(reinterpret_cast<uintptr_t>(addr), size, flags & kAccessWrite)) return;
  engine_after_split(addr, size, flags, site, 0);
}
// The thread's hint for the granule's 16 KiB region first
// (race::hinted_access_needs_no_work, no call and so no frame here): a
// program using more large arrays at once than the remembered blocks hold
// is answered in ~25 instructions instead of ~90 (pigz -11: 60 million
// such accesses in a run on 100 KB).
__attribute__((noinline)) void untouched_after_fast_path(void *addr, uintptr_t size, uint32_t flags,
                                                        snag_site_t site) {
  if (race::hinted_access_needs_no_work(reinterpret_cast<uintptr_t>(addr), size, flags & kAccessWrite)) return;
  untouched_after_hint(addr, size, flags, site);
}

// A range over more than one granule that range_quickly_needs_no_work did
// not answer (not inside one coarse block): its granules, blocks and split
// granules' bytes asked one by one (race::range_owned_again) before the
// engine's call chain, whose on_access would come to the same question
// after three other shortcuts (task_graph: strings copied on the stack,
// whose granules stay split). Out of line, as split_after_fast_path, so
// that the range hooks keep no frame.
__attribute__((noinline)) void range_after_fast_path(void *addr, uintptr_t size, uint32_t flags,
                                                    snag_site_t site) {
  if (race::g_ranges_answered_inline &&
      race::range_owned_again(reinterpret_cast<uintptr_t>(addr), size, flags & kAccessWrite))
    return;
  engine_after_split(addr, size, flags, site, 0);
}

// Everything after the inlined fast path's "no". Kept out of line so that
// the hooks that inline access() need no stack frame on the fast path (the
// call here is their tail call). `seen` is the state word the inlined fast
// path loaded (0: none).
__attribute__((noinline)) void access_after_fast_path(void *addr, uintptr_t size, uint32_t flags,
                                                     snag_site_t site, uint64_t seen) {
  if (race::is_split_word(seen)) return split_after_fast_path(addr, size, flags, site, seen);
  if (!seen) return untouched_after_fast_path(addr, size, flags, site);
  engine_after_fast_path(addr, size, flags, site, seen);
}

// The flat renewal `Renew` (RenewOwn or RenewBlock below) for the hook's
// size and kind: size and flags are constants in each hook, so one call is
// left; the range hooks' small ranges keep their flag through the general
// one.
template <class Renew>
SNAG_ALWAYS_INLINE void renew_sized(uintptr_t a, uintptr_t size, uint32_t flags, snag_site_t site, uint64_t seen) {
  const bool write = flags & kAccessWrite;
  if ((flags & ~uint32_t(kAccessWrite)) == 0) switch (size) {
      case 1:
        return write ? Renew::template sized<1, true>(a, site, seen) : Renew::template sized<1, false>(a, site, seen);
      case 2:
        return write ? Renew::template sized<2, true>(a, site, seen) : Renew::template sized<2, false>(a, site, seen);
      case 4:
        return write ? Renew::template sized<4, true>(a, site, seen) : Renew::template sized<4, false>(a, site, seen);
      case 8:
        return write ? Renew::template sized<8, true>(a, site, seen) : Renew::template sized<8, false>(a, site, seen);
      default: break;
    }
  return Renew::general(a, size, flags, site, seen);
}
struct RenewOwn {
  template <uintptr_t kSize, bool kWrite>
  static SNAG_ALWAYS_INLINE void sized(uintptr_t a, snag_site_t site, uint64_t seen) {
    race::renew_own_after_fast_path<kSize, kWrite>(a, site, seen);
  }
  static SNAG_ALWAYS_INLINE void general(uintptr_t a, uintptr_t size, uint32_t flags, snag_site_t site,
                                         uint64_t seen) {
    race::renew_own_after_fast_path(a, size, flags, site, seen);
  }
};
struct RenewBlock {
  template <uintptr_t kSize, bool kWrite>
  static SNAG_ALWAYS_INLINE void sized(uintptr_t a, snag_site_t site, uint64_t seen) {
    race::renew_block_after_fast_path<kSize, kWrite>(a, site, seen);
  }
  static SNAG_ALWAYS_INLINE void general(uintptr_t a, uintptr_t size, uint32_t flags, snag_site_t site,
                                         uint64_t seen) {
    race::renew_block_after_fast_path(a, size, flags, site, seen);
  }
};

// After the check's "no" with state word `seen`: the owner's renewal of its
// granule, or a coarse block's renewal, straight away (no chain of frames
// before them: race_bench.txt section 96), else the rest.
SNAG_ALWAYS_INLINE void after_fast_path(void *addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                        uint64_t seen) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const uint64_t epoch = race::t_fast_path.epoch_word;
  if (race::own_exclusive_word(seen, epoch)) return renew_sized<RenewOwn>(a, size, flags, site, seen);
  if (race::block_word_seen(seen, epoch)) return renew_sized<RenewBlock>(a, size, flags, site, seen);
  access_after_fast_path(addr, size, flags, site, seen);
}

template <race::Remember where = race::Remember::kFirst>
SNAG_ALWAYS_INLINE void access(void *addr, uintptr_t size, uint32_t flags, snag_site_t site) {
  uint64_t seen;
  if (race::access_quickly_needs_no_work<where>(reinterpret_cast<uintptr_t>(addr), size, flags & kAccessWrite,
                                                &seen))
    return;
  after_fast_path(addr, size, flags, site, seen);
}

// access() for the one-byte hooks: a byte of a split granule is one state
// word, answered here without a loop or a call (split_after_fast_path's
// answer for one byte). Strings built on the stack write their characters
// one at a time into granules that split once and stay split (task_graph:
// 4.2 million of __snag_write1's 5.8 million calls went on to
// split_after_fast_path through access_after_fast_path).
SNAG_ALWAYS_INLINE void access_byte(void *addr, uint32_t flags, snag_site_t site) {
  uint64_t seen;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (race::access_quickly_needs_no_work(a, 1, flags & kAccessWrite, &seen) ||
      (race::is_split_word(seen) && race::split_granule_needs_no_work(seen, a, 1, flags & kAccessWrite)))
    return;
  after_fast_path(addr, 1, flags, site, seen);
}

// A range over several granules inside one block its owner touches again
// is answered here too (race::range_quickly_needs_no_work, which remembers
// the block behind the others: race::remember_block_behind), and one over
// granules its owner touches again just after (range_after_fast_path).
SNAG_ALWAYS_INLINE void range_access(void *addr, size_t size, uint32_t flags, snag_site_t site) {
  if (size > race::kGranule) {
    if (race::range_quickly_needs_no_work(reinterpret_cast<uintptr_t>(addr), size, flags & kAccessWrite)) return;
    return range_after_fast_path(addr, size, flags, site);
  }
  // A small range (memcmp's bytes up to the first difference: often one
  // granule) remembers its block behind, as a larger one does. A split
  // granule's bytes are asked here, as access_byte asks its byte, not
  // after access_after_fast_path's dispatch and split_after_fast_path's
  // call (~90 instructions for a few bytes): short strings copied and
  // compared on the stack (task_graph: 2.0 million small ranges, as many as
  // all other split granules' accesses). Their loop costs this function
  // two more saved registers, ~4 instructions on every range.
  uint64_t seen;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const bool write = flags & kAccessWrite;
  if (race::access_quickly_needs_no_work<race::Remember::kBehind>(a, size, write, &seen) ||
      (race::is_split_word(seen) && race::split_granule_needs_no_work(seen, a, size, write)))
    return;
  after_fast_path(addr, size, flags, site, seen);
}

SNAG_ALWAYS_INLINE void atomic_event(EventKind kind, void *addr, uint32_t size, uint32_t op,
                                     uint32_t order, snag_site_t site, uintptr_t failure_order,
                                     uint32_t succeeded) {
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e{kind};
  e.addr = reinterpret_cast<uintptr_t>(addr);
  e.size = size;
  e.value = op;
  e.order = order;
  e.addr2 = failure_order;
  e.flags = succeeded;
  e.site = site;
  if (EventHook hook = g_atomic_hook) hook(*t, e);
  else emit(t, e);
}

}  // namespace
}  // namespace snag

using namespace snag;

#define SNAG_ACCESS_HOOKS(N)                                                          \
  SNAG_INTERFACE void __snag_read##N(void *addr, snag_site_t site) {                  \
    access(addr, N, 0, site);                                                         \
  }                                                                                   \
  SNAG_INTERFACE void __snag_write##N(void *addr, snag_site_t site) {                 \
    access(addr, N, kAccessWrite, site);                                              \
  }
SNAG_INTERFACE void __snag_read1(void *addr, snag_site_t site) { access_byte(addr, 0, site); }
SNAG_INTERFACE void __snag_write1(void *addr, snag_site_t site) { access_byte(addr, kAccessWrite, site); }
SNAG_ACCESS_HOOKS(2)
SNAG_ACCESS_HOOKS(4)
SNAG_ACCESS_HOOKS(8)
SNAG_ACCESS_HOOKS(16)
#undef SNAG_ACCESS_HOOKS

SNAG_INTERFACE void __snag_read_range(void *addr, size_t size, snag_site_t site) {
  if (size) range_access(addr, size, kAccessRange, site);
}

SNAG_INTERFACE void __snag_write_range(void *addr, size_t size, snag_site_t site) {
  if (size) range_access(addr, size, kAccessRange | kAccessWrite, site);
}

SNAG_INTERFACE int __snag_loop_range_unchanged(void *addr, size_t size, int write) {
  return race::range_needs_no_work(reinterpret_cast<uintptr_t>(addr), size, write != 0);
}

SNAG_INTERFACE int __snag_loop_ring_unchanged(void *base, size_t stride, size_t slots, size_t first,
                                              size_t taken, size_t bytes, int write) {
  return race::ring_needs_no_work(reinterpret_cast<uintptr_t>(base), stride, slots, first, taken, bytes,
                                  write != 0);
}

SNAG_INTERFACE void __snag_atomic_before(void *addr, uint32_t size, uint32_t op, uint32_t order,
                                         snag_site_t site) {
  atomic_event(EventKind::kAtomicBefore, addr, size, op, order, site, order, 1);
}

SNAG_INTERFACE void __snag_atomic_after(void *addr, uint32_t size, uint32_t op, uint32_t order,
                                        uint32_t failure_order, uint32_t succeeded,
                                        snag_site_t site) {
  atomic_event(EventKind::kAtomicAfter, addr, size, op, order, site, failure_order, succeeded);
}

SNAG_INTERFACE void __snag_fence(uint32_t order, snag_site_t site) {
  ThreadState *t = observing_thread();
  if (!t) return;
  Event e{EventKind::kFence};
  e.order = order;
  e.site = site;
  if (EventHook hook = g_atomic_hook) hook(*t, e);
  else emit(t, e);
}

SNAG_INTERFACE void __snag_func_entry(snag_site_t function_site, void *frame) {
  (void)function_site;
  ThreadState *t = current_thread();
  t->shadow.push(__snag_call_site, reinterpret_cast<uintptr_t>(frame));
}

SNAG_INTERFACE void __snag_func_exit() {
  current_thread()->shadow.pop();
  // The caller sets the call site again before its next call; clearing it
  // here keeps a stale site from becoming the caller frame of code reached
  // from uninstrumented code (main after static constructors, callbacks).
  __snag_call_site = 0;
}

SNAG_INTERFACE void __snag_api_begin(void *object, uint32_t is_write, snag_site_t site) {
  ApiHook hook = g_api_begin_hook;
  if (SNAG_LIKELY(!hook)) return;
  ThreadState *t = observing_thread();
  if (!t) return;
  hook(*t, reinterpret_cast<uintptr_t>(object), is_write ? uint32_t(kApiWrite) : 0u, site);
}

SNAG_INTERFACE void __snag_api_end(void *object, snag_site_t site) {
  ApiHook hook = g_api_end_hook;
  if (SNAG_LIKELY(!hook)) return;
  ThreadState *t = observing_thread();
  if (!t) return;
  hook(*t, reinterpret_cast<uintptr_t>(object), 0, site);
}
