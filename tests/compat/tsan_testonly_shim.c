/* The tsan lit tests order their threads with __tsan_testonly_barrier_*, a
 * barrier ThreadSanitizer deliberately does not see as synchronization. For
 * snag the same effect comes from compiling this file WITHOUT snag-cc: its
 * spinning is plain uninstrumented code, so no happens-before edge reaches the
 * race engine and the tests keep their meaning. Used only by tsan_lit.py. */
typedef unsigned long long invisible_barrier_t;

void __tsan_testonly_barrier_init(invisible_barrier_t *barrier, unsigned count) {
  /* low 32 bits: threads still to arrive; high 32 bits: the round (generation) */
  __atomic_store_n(barrier, (unsigned long long)count, __ATOMIC_RELAXED);
  ((unsigned *)barrier)[0] = count;
}

void __tsan_testonly_barrier_wait(invisible_barrier_t *barrier) {
  static unsigned long long counts[64];
  unsigned long long old = __atomic_load_n(barrier, __ATOMIC_RELAXED);
  (void)counts;
  unsigned count = (unsigned)(old & 0xffffffffu);
  /* Each wait adds 1<<32; the round is complete when the sum of arrivals
   * reaches the next multiple of count. */
  unsigned long long mine = __atomic_add_fetch(barrier, 1ull << 32, __ATOMIC_RELAXED) >> 32;
  unsigned long long target = ((mine + count - 1) / count) * count;
  while ((__atomic_load_n(barrier, __ATOMIC_RELAXED) >> 32) < target) {
  }
}

unsigned long __tsan_testonly_shadow_stack_current_size(void) { return 0; }
