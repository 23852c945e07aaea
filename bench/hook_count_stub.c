/* A stand-in for snag's runtime that only counts access-hook calls, for
 * bench/count_hooks.sh. SNAG_COUNT_EVERY sets __snag_every_access (default
 * 1); __snag_loop_range_unchanged always says no, so the count is of hooks
 * before any loop-range question skips one. Prints "HOOKS n" at exit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
static uint64_t n_hooks;
int __snag_every_access = 1;
int __snag_api_calls_wanted = 0;
__thread uint64_t __snag_call_site;
#define H(name) void name(void *a, uint64_t s) { __atomic_fetch_add(&n_hooks, 1, __ATOMIC_RELAXED); }
H(__snag_read1) H(__snag_read2) H(__snag_read4) H(__snag_read8) H(__snag_read16)
H(__snag_write1) H(__snag_write2) H(__snag_write4) H(__snag_write8) H(__snag_write16)
void __snag_read_range(void *a, size_t n, uint64_t s) { __atomic_fetch_add(&n_hooks, 1, __ATOMIC_RELAXED); }
void __snag_write_range(void *a, size_t n, uint64_t s) { __atomic_fetch_add(&n_hooks, 1, __ATOMIC_RELAXED); }
int __snag_loop_range_unchanged(void *a, size_t n, int w) { return 0; }
void __snag_atomic_before(void *a, uint32_t sz, uint32_t op, uint32_t o, uint64_t s) {}
void __snag_atomic_after(void *a, uint32_t sz, uint32_t op, uint32_t o, uint32_t f, uint32_t ok, uint64_t s) {}
void __snag_fence(uint32_t o, uint64_t s) {}
void __snag_func_entry(uint64_t s, void *f) {}
void __snag_func_exit(void) {}
void __snag_api_begin(void *o, uint32_t w, uint64_t s) {}
void __snag_api_end(void *o, uint64_t s) {}
void __snag_register_sites(const char *t, size_t n) {}
__attribute__((constructor(101))) static void init(void) { if (getenv("SNAG_COUNT_EVERY")) __snag_every_access = atoi(getenv("SNAG_COUNT_EVERY")); }
__attribute__((destructor)) static void fini(void) { fprintf(stderr, "HOOKS %llu\n", (unsigned long long)n_hooks); }
