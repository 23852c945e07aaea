/* The contract between snag's compiler pass and its runtime library.
 *
 * The pass (compiler/plugin) inserts calls to these functions; the runtime
 * (runtime/) defines them. Both sides include this header so that a change
 * to one side that the other does not follow fails to compile.
 *
 * Every instrumented place in the program has a stable 64-bit site id,
 * computed by the pass from (function linkage name, file, line, column, kind,
 * parent site, ordinal) and listed in the module's site table (see
 * docs/site-table.md). Code inlined by the optimizer is described by inline
 * sites (SNAG_SITE_INLINE), the parents of its sites.
 */
#ifndef SNAG_ABI_H
#define SNAG_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t snag_site_t;

/* Version of this contract; the pass records it in the site table header. */
#define SNAG_ABI_VERSION 1

/* Kinds of sites, as they appear in the site table. */
enum snag_site_kind {
  SNAG_SITE_READ = 0,      /* plain load */
  SNAG_SITE_WRITE = 1,     /* plain store */
  SNAG_SITE_ATOMIC = 2,    /* atomic load/store/rmw/cmpxchg */
  SNAG_SITE_FENCE = 3,     /* atomic fence */
  SNAG_SITE_MEMOP = 4,     /* memcpy / memmove / memset */
  SNAG_SITE_FUNCTION = 5,  /* function entry */
  SNAG_SITE_CALL = 6,      /* a call instruction (a frame of a stack) */
  SNAG_SITE_API = 7,       /* call to a thread-unsafe API member (TSVD point) */
  SNAG_SITE_INLINE = 8     /* an inlined call: a frame without a call instruction */
};

/* Memory orders, numbered like C11's memory_order. */
enum snag_memory_order {
  SNAG_RELAXED = 0,
  SNAG_CONSUME = 1,
  SNAG_ACQUIRE = 2,
  SNAG_RELEASE = 3,
  SNAG_ACQ_REL = 4,
  SNAG_SEQ_CST = 5
};

/* What an atomic instruction does. */
enum snag_atomic_op {
  SNAG_ATOMIC_LOAD = 0,
  SNAG_ATOMIC_STORE = 1,
  SNAG_ATOMIC_RMW = 2,     /* xchg, add, sub, and, or, xor, nand, min, max, ... */
  SNAG_ATOMIC_CMPXCHG = 3
};

/* Plain memory accesses. Called before the access. size is in bytes. */
void __snag_read1(void *addr, snag_site_t site);
void __snag_read2(void *addr, snag_site_t site);
void __snag_read4(void *addr, snag_site_t site);
void __snag_read8(void *addr, snag_site_t site);
void __snag_read16(void *addr, snag_site_t site);
void __snag_write1(void *addr, snag_site_t site);
void __snag_write2(void *addr, snag_site_t site);
void __snag_write4(void *addr, snag_site_t site);
void __snag_write8(void *addr, snag_site_t site);
void __snag_write16(void *addr, snag_site_t site);
/* Any other size, and the ranges of memcpy/memmove/memset (source read,
 * destination written). */
void __snag_read_range(void *addr, size_t size, snag_site_t site);
void __snag_write_range(void *addr, size_t size, snag_site_t site);
/* Asked once before a loop that neither calls nor synchronizes, for the
 * whole range one of its accesses can touch: nonzero when every such access
 * would change nothing in the running engines (the race engine alone, its
 * fast path), so the loop may skip that access's hook. */
int __snag_loop_range_unchanged(void *addr, size_t size, int write);
/* The same for an access at base + stride * index of `bytes` bytes whose
 * index steps by one around a ring of `slots` elements (b[i & 31]): the
 * loop's iterations reach the slots from `first` on, taken + 1 of them at
 * most (wrapping to slot 0 past the last), and only those are asked about. */
int __snag_loop_ring_unchanged(void *base, size_t stride, size_t slots, size_t first, size_t taken,
                               size_t bytes, int write);

/* Atomic instructions. __snag_atomic_before runs before every atomic
 * instruction (a scheduling point; release semantics are published here).
 * __snag_atomic_after runs after loads, read-modify-writes and
 * compare-exchanges (acquire semantics are taken here). For cmpxchg, order is
 * the success order and failure_order the failure order; `succeeded` tells
 * which applied. For other ops failure_order equals order and succeeded is 1. */
void __snag_atomic_before(void *addr, uint32_t size, uint32_t op, uint32_t order,
                          snag_site_t site);
void __snag_atomic_after(void *addr, uint32_t size, uint32_t op, uint32_t order,
                         uint32_t failure_order, uint32_t succeeded, snag_site_t site);
void __snag_fence(uint32_t order, snag_site_t site);

/* Function entry and exit, for shadow call stacks. `frame` is the function's
 * frame address: the runtime drops frames below it, so stacks stay right
 * when an exception or longjmp skipped __snag_func_exit. */
void __snag_func_entry(snag_site_t function_site, void *frame);
void __snag_func_exit(void);

/* Before every call instruction in an instrumented function, the pass stores
 * the call's site id here (one thread-local store, no call). The callee's
 * __snag_func_entry, and every interceptor, read it as the caller's line. */
extern __thread snag_site_t __snag_call_site;

/* Calls to members of thread-unsafe classes (std::vector::push_back, ...),
 * inserted before inlining. `object` is the `this` pointer; is_write is 1 for
 * members that modify the object. __snag_api_end follows the call (also on
 * the exceptional edge of an invoke). */
void __snag_api_begin(void *object, uint32_t is_write, snag_site_t site);
/* Nonzero while an engine wants API calls: the compiler calls the two API
 * hooks only then, so they cost a load and a branch under the others. */
extern int __snag_api_calls_wanted;
/* Nonzero while an engine wants every plain access: an access that an earlier
 * access to the same bytes covers on every path, with no synchronization
 * between, calls its hook only then (compiler/plugin/RedundantAccesses.h).
 * The runtime clears it while the race engine runs alone. */
extern int __snag_every_access;
void __snag_api_end(void *object, snag_site_t site);

/* Each instrumented module registers its site table (docs/site-table.md)
 * from a constructor. */
void __snag_register_sites(const char *table, size_t length);

/* A lean guard build (-fsnag-instrument=guard) inlines the guard recorder's
 * "nothing changes" test at each site and reads the runtime's table
 * directly: __snag_guard_slots (slots of SNAG_GUARD_SLOT_SIZE bytes),
 * __snag_guard_mask (the index mask; 0 while guard is not running) and the
 * thread-local __snag_guard_tid. A slot holds its granule's key (address
 * rounded down to 8, plus 8) at offset 0, the newest access's site at
 * SNAG_GUARD_SLOT_SITE_OFFSET and its thread at SNAG_GUARD_SLOT_THREAD_OFFSET.
 * The slot of key g is ((g >> 3) + (g >> (3 + SNAG_GUARD_SLOTS_LOG2)) *
 * SNAG_GUARD_WINDOW_HASH) & mask (runtime/engines/guard/recorder.h). */
#define SNAG_GUARD_SLOTS_LOG2 22
#define SNAG_GUARD_SLOT_SIZE 48
#define SNAG_GUARD_SLOT_SITE_OFFSET 8
#define SNAG_GUARD_SLOT_THREAD_OFFSET 24
#define SNAG_GUARD_WINDOW_HASH 0x9e3779b1u

#ifdef __cplusplus
}
#endif

#endif /* SNAG_ABI_H */
