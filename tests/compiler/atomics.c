// Atomic instructions call __snag_atomic_before(addr, size, op, order, site)
// before them and, except for stores, __snag_atomic_after(addr, size, op,
// order, failure_order, succeeded, site) after them, with the same site.
// op: 0 load, 1 store, 2 rmw, 3 cmpxchg. order: 0 relaxed, 2 acquire,
// 3 release, 4 acq_rel, 5 seq_cst. Atomics are not also plain accesses.
// RUN: SNAG_INSTRUMENT=atomics,memory
// RUN: SNAG_INSTRUMENT=atomics,memory check=NOPLAIN
#include <stdatomic.h>
#include <stdbool.h>

_Atomic int a32;
_Atomic char a8;
_Atomic short a16;
_Atomic long a64;


// CHECK-LABEL: define {{.*}}i32 @loads(
int loads(void) {
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 0, i64 [[S1:-?[0-9]+]])
  // CHECK-NEXT: load atomic i32, i32* @a32 monotonic
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 0, i32 0, i32 1, i64 [[S1]])
  int r = atomic_load_explicit(&a32, memory_order_relaxed);
  // consume is implemented as acquire.
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 2, i64 [[S2:-?[0-9]+]])
  // CHECK-NEXT: load atomic i32, i32* @a32 acquire
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 2, i32 2, i32 1, i64 [[S2]])
  r += atomic_load_explicit(&a32, memory_order_consume);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 2,
  // CHECK-NEXT: load atomic i32, i32* @a32 acquire
  r += atomic_load_explicit(&a32, memory_order_acquire);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 5,
  // CHECK-NEXT: load atomic i32, i32* @a32 seq_cst
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 0, i32 5, i32 5, i32 1,
  r += atomic_load(&a32);
  // Sizes 1, 2, 8.
  // CHECK: call void @__snag_atomic_before(i8* @a8, i32 1, i32 0, i32 5,
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i16* @a16 to i8*), i32 2, i32 0, i32 5,
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i64* @a64 to i8*), i32 8, i32 0, i32 5,
  r += atomic_load(&a8) + atomic_load(&a16) + atomic_load(&a64);
  return r;
}

// CHECK-LABEL: define {{.*}}void @stores(
void stores(void) {
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 1, i32 0,
  // CHECK-NEXT: store atomic i32 1, i32* @a32 monotonic
  // CHECK-NOT: @__snag_atomic_after
  atomic_store_explicit(&a32, 1, memory_order_relaxed);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 1, i32 3,
  // CHECK-NEXT: store atomic i32 2, i32* @a32 release
  atomic_store_explicit(&a32, 2, memory_order_release);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 1, i32 5,
  // CHECK-NEXT: store atomic i32 3, i32* @a32 seq_cst
  // CHECK-NOT: @__snag_atomic_after
  // CHECK: ret void
  atomic_store(&a32, 3);
}

// CHECK-LABEL: define {{.*}}void @rmws(
void rmws(void) {
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 0, i64 [[R1:-?[0-9]+]])
  // CHECK-NEXT: atomicrmw add i32* @a32, i32 1 monotonic
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 0, i32 0, i32 1, i64 [[R1]])
  atomic_fetch_add_explicit(&a32, 1, memory_order_relaxed);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 2,
  // CHECK-NEXT: atomicrmw sub i32* @a32, i32 1 acquire
  atomic_fetch_sub_explicit(&a32, 1, memory_order_acquire);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 3,
  // CHECK-NEXT: atomicrmw or i32* @a32, i32 1 release
  atomic_fetch_or_explicit(&a32, 1, memory_order_release);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 4,
  // CHECK-NEXT: atomicrmw and i32* @a32, i32 1 acq_rel
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 4, i32 4, i32 1,
  atomic_fetch_and_explicit(&a32, 1, memory_order_acq_rel);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 2, i32 5,
  // CHECK-NEXT: atomicrmw xchg i32* @a32, i32 7 seq_cst
  atomic_exchange(&a32, 7);
}

// CHECK-LABEL: define {{.*}} @cas(
bool cas(int expected) {
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 3, i32 4, i64 [[C1:-?[0-9]+]])
  // CHECK-NEXT: [[PAIR:%.*]] = cmpxchg i32* @a32, i32 {{.*}}, i32 5 acq_rel acquire
  // CHECK-NEXT: [[OK:%.*]] = extractvalue { i32, i1 } [[PAIR]], 1
  // CHECK-NEXT: [[OK32:%.*]] = zext i1 [[OK]] to i32
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 3, i32 4, i32 2, i32 [[OK32]], i64 [[C1]])
  bool first = atomic_compare_exchange_strong_explicit(
      &a32, &expected, 5, memory_order_acq_rel, memory_order_acquire);
  // CHECK: call void @__snag_atomic_before(i8* bitcast (i32* @a32 to i8*), i32 4, i32 3, i32 5,
  // CHECK-NEXT: cmpxchg weak i32* @a32, i32 {{.*}}, i32 6 seq_cst monotonic
  // CHECK-NEXT: extractvalue
  // CHECK-NEXT: zext
  // CHECK-NEXT: call void @__snag_atomic_after(i8* bitcast (i32* @a32 to i8*), i32 4, i32 3, i32 5, i32 0,
  bool second = atomic_compare_exchange_weak_explicit(
      &a32, &expected, 6, memory_order_seq_cst, memory_order_relaxed);
  return first && second;
}

// One fence per function: the optimizer merges neighbouring fences.
// CHECK-LABEL: define {{.*}}void @fence_acquire(
// CHECK: call void @__snag_fence(i32 2, i64 {{-?[0-9]+}})
// CHECK-NEXT: fence acquire
void fence_acquire(void) { atomic_thread_fence(memory_order_acquire); }

// CHECK-LABEL: define {{.*}}void @fence_release(
// CHECK: call void @__snag_fence(i32 3,
// CHECK-NEXT: fence release
void fence_release(void) { atomic_thread_fence(memory_order_release); }

// CHECK-LABEL: define {{.*}}void @fence_acq_rel(
// CHECK: call void @__snag_fence(i32 4,
// CHECK-NEXT: fence acq_rel
void fence_acq_rel(void) { atomic_thread_fence(memory_order_acq_rel); }

// CHECK-LABEL: define {{.*}}void @fence_seq_cst(
// CHECK: call void @__snag_fence(i32 5,
// CHECK-NEXT: fence seq_cst
void fence_seq_cst(void) { atomic_thread_fence(memory_order_seq_cst); }

// A signal fence does not order other threads: no hook.
// CHECK-LABEL: define {{.*}}void @signal_fence(
// CHECK-NOT: call void @__snag_
// CHECK: fence syncscope("singlethread") seq_cst
// CHECK-NEXT: ret void
void signal_fence(void) { atomic_signal_fence(memory_order_seq_cst); }

// No plain-access hooks anywhere: every access here is atomic.
// NOPLAIN-NOT: call void @__snag_read
// NOPLAIN-NOT: call void @__snag_write
