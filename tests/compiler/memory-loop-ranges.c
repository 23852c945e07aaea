// A loop that neither calls nor uses atomics asks the runtime once, in its
// preheader, about the whole range each of its accesses can touch; the
// access's hook then runs only when the answer was no, and after the first
// hook that runs in a run of the loop the question is asked once more (the
// no was often that first access's own work). A loop that calls a
// function (it may synchronize) or whose address does not step by a constant
// keeps a hook per access, as does every access outside loops.
// RUN: SNAG_INSTRUMENT=memory -O1

void lock(void);

// CHECK-LABEL: define {{.*}}i64 @sum(
long sum(const long *b, long n) {
  // The answer lives in a slot: 1 skip, 0 ask again after a hook, 2 no.
  // CHECK: [[SLOT:%snag.skip.slot[0-9]*]] = alloca i8
  // The range of b[0..n): from b, n * 8 bytes, read.
  // CHECK: [[ANSWER:%.*]] = call i32 @__snag_loop_range_unchanged(i8* [[BEGIN:%[^,]*]], i64 [[COUNT:%[^,]*]], i32 0)
  // CHECK-NEXT: [[YES:%.*]] = icmp ne i32 [[ANSWER]], 0
  // CHECK-NEXT: [[SKIP:%.*]] = select i1 [[YES]], i8 1, i8 0
  // CHECK-NEXT: store i8 [[SKIP]], i8* [[SLOT]]
  // CHECK: [[STATE:%.*]] = load i8, i8* [[SLOT]]
  // CHECK-NEXT: [[ASK:%.*]] = icmp ne i8 [[STATE]], 1
  // CHECK-NEXT: br i1 [[ASK]], label %[[HOOK:.*]], label %[[ACCESS:[^ ,]*]]
  // CHECK: [[HOOK]]:
  // CHECK: call void @__snag_read8(
  // After the first access of this run of the loop (its inline check or its
  // hook), the same question again.
  // CHECK: [[STATE_AFTER:%.*]] = load i8, i8* [[SLOT]]
  // CHECK-NEXT: [[FIRST:%.*]] = icmp eq i8 [[STATE_AFTER]], 0
  // CHECK-NEXT: br i1 [[FIRST]], label %[[AGAIN:[^ ,]*]], label
  // CHECK: [[AGAIN]]:
  // CHECK-NEXT: [[ANSWER2:%.*]] = call i32 @__snag_loop_range_unchanged(i8* [[BEGIN]], i64 [[COUNT]], i32 0)
  // CHECK-NEXT: [[YES2:%.*]] = icmp ne i32 [[ANSWER2]], 0
  // CHECK-NEXT: [[STATE2:%.*]] = select i1 [[YES2]], i8 1, i8 2
  // CHECK-NEXT: store i8 [[STATE2]], i8* [[SLOT]]
  // CHECK: [[ACCESS]]:
  // CHECK-NEXT: load i64
  long s = 0;
  for (long i = 0; i < n; ++i) s += b[i];
  return s;
}

// CHECK-LABEL: define {{.*}}void @fill_backwards(
void fill_backwards(int *b, long n) {
  // CHECK: call i32 @__snag_loop_range_unchanged({{.*}}, i32 1)
  // CHECK: call void @__snag_write4(
  for (long i = n - 1; i >= 0; --i) b[i] = 7;
}

// Two loops on either side of a branch touch the same variable: each asks
// before itself, since the other's answer is not defined there. (Sharing one
// answer broke dominance; run-test.sh verifies the module.)
long g;
// CHECK-LABEL: define {{.*}}void @either(
void either(const long *b, long n, int which) {
  // CHECK: call i32 @__snag_loop_range_unchanged(
  // CHECK: call i32 @__snag_loop_range_unchanged(
  if (which)
    for (long i = 0; i < n; ++i) g += b[i];
  else
    for (long i = 0; i < n; ++i) g ^= b[i];
}

// A loop right after another: the first loop's latch branches straight into
// the second, so the second has no block of its own to ask from; asking in
// that latch would ask once per iteration of the first loop. It keeps its
// hooks instead.
// CHECK-LABEL: define {{.*}}i64 @fill_then_sum(
unsigned long fill_then_sum(unsigned long *w) {
  // The fill loop's question, and the same asked again inside it.
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* [[FILL:%[^,]*]], i64 32768, i32 1)
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* [[FILL]], i64 32768, i32 1)
  // CHECK-NOT: __snag_loop_range_unchanged
  // CHECK: call void @__snag_read8(
  for (unsigned long i = 0; i < 4096; ++i) w[i] = i * 3;
  unsigned long s = 0;
  for (unsigned long i = 0; i < 4096; i += 7) s += w[i];
  return s;
}

// A loop that runs only on some calls (std::mt19937 refills its state every
// 312th draw) asks on the edge into the loop, not in the block that
// branches around it: asking there walked the whole range on every call.
long state[312];
long next_index;
// CHECK-LABEL: define {{.*}}i64 @draw(
long draw(void) {
  // CHECK: br i1 {{.*}}, label %[[REFILL_ENTRY:[^ ,]*]], label %[[DRAW:[^ ,]*]]
  // CHECK-NOT: __snag_loop_range_unchanged
  // CHECK: [[REFILL_ENTRY]]:
  // CHECK-NEXT: call i32 @__snag_loop_range_unchanged(
  if (next_index >= 312) {
    for (long i = 0; i < 312; ++i) state[i] = state[i] * 3 + 1;
    next_index = 0;
  }
  return state[next_index++];
}

// An index masked by a power of two less one (a ring's neighbour) does not
// step by a constant, but it steps by one around a ring of 32 slots: the
// ring question gives the base, the stride (8), the slots (32), the first
// slot (1) and the loop's backedge-taken count (n - 1), and the runtime asks
// about the slots the iterations reach, not every slot of the ring.
// CHECK-LABEL: define {{.*}}i64 @ring_neighbours(
long ring_neighbours(const long *b, long n) {
  // CHECK: call i32 @__snag_loop_ring_unchanged(i8* [[RING:%[^,]*]], i64 8, i64 32, i64 1, i64 [[TAKEN:%[^,]*]], i64 8, i32 0)
  // CHECK: [[RING_STATE:%.*]] = load i8, i8* %snag.skip.slot
  // CHECK-NEXT: icmp ne i8 [[RING_STATE]], 1
  // CHECK: call void @__snag_read8(
  // CHECK: call i32 @__snag_loop_ring_unchanged(i8* [[RING]], i64 8, i64 32, i64 1, i64 [[TAKEN]], i64 8, i32 0)
  long s = 0;
  for (long k = 0; k < n; ++k) s += b[(k + 1) & 31];
  return s;
}

// A consumer copying slots [from, to) of a ring of 32 ints: the first slot
// is from's low five bits, the count to - from - 1 (race_bench.txt section
// 91: asked over the whole ring, its yes stretched the read over slots the
// loop never read).
// CHECK-LABEL: define {{.*}}void @ring_copy(
void ring_copy(int *out, const int *ring, unsigned from, unsigned to) {
  // CHECK: [[FIRST5:%.*]] = trunc i32 %from to i5
  // CHECK: [[FIRST:%.*]] = zext i5 [[FIRST5]] to i64
  // CHECK: call i32 @__snag_loop_ring_unchanged(i8* {{%[^,]*}}, i64 4, i64 32, i64 [[FIRST]], i64 {{%[^,]*}}, i64 4, i32 0)
  for (unsigned i = from; i != to; ++i) out[i] = ring[i & 31];
}

// Offsets that may be negative are bounded by their signed range: b[k % 8]
// for a signed k reaches from b[-7] to b[7] (scalar evolution's range of
// 8 * (k % 8) is [-64, 56]: 128 bytes from b - 64).
// CHECK-LABEL: define {{.*}}i64 @signed_remainders(
long signed_remainders(const long *b, long from, long n) {
  // CHECK: [[B:%.*]] = ptrtoint i64* %b to i64
  // CHECK: [[BELOW:%.*]] = add i64 [[B]], -64
  // CHECK: [[BEGIN:%.*]] = inttoptr i64 [[BELOW]] to i8*
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* [[BEGIN]], i64 128, i32 0)
  long s = 0;
  for (long k = from; k < n; ++k) s += b[k % 8];
  return s;
}

// A mask too wide for one question (32 KiB of table for a loop that may
// touch a few entries) keeps a hook per access.
// CHECK-LABEL: define {{.*}}i64 @scattered(
long scattered(const long *t, long n) {
  // CHECK-NOT: __snag_loop_range_unchanged
  // CHECK: call void @__snag_read8(
  long s = 0;
  for (long k = 0; k < n; ++k) s += t[(k * 7) & 4095];
  return s;
}

// A quiet outer loop that runs its inner loop on every iteration asks once,
// before itself, about a range it does not move (four rounds over one
// buffer: one question of each kind for the whole nest, not per round).
// CHECK-LABEL: define {{.*}}void @rounds(
void rounds(long *b, int n) {
  // CHECK-NOT: phi
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* {{%[^,]*}}, i64 256, i32 0)
  // CHECK-NOT: phi
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* {{%[^,]*}}, i64 256, i32 1)
  // CHECK-NOT: phi
  // CHECK: br label %[[ROUND:[^ ,]*]]
  // CHECK: [[ROUND]]:
  // CHECK-NOT: call i32 @__snag_loop_range_unchanged
  // CHECK: br label
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < 32; ++k) b[k] = b[k] * 3 + b[(k + 1) % 32];
}

// The range moves with the outer loop (a row each): asked before each run
// of the inner loop, inside the outer one.
// CHECK-LABEL: define {{.*}}void @rows(
void rows(long *b, long n) {
  // CHECK: phi
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* {{%[^,]*}}, i64 256, i32 0)
  for (long r = 0; r < n; ++r)
    for (long k = 0; k < 32; ++k) b[r * 32 + k] += 1;
}

// The inner loop runs only on some iterations: its question stays at its
// own entry, so that a range is asked about (and counted as touched) only
// when the loop runs.
// CHECK-LABEL: define {{.*}}void @sometimes(
void sometimes(long *b, const int *which, long n) {
  // CHECK: phi
  // CHECK: call i32 @__snag_loop_range_unchanged(i8* {{%[^,]*}}, i64 256, i32 0)
  for (long r = 0; r < n; ++r)
    if (which[r])
      for (long k = 0; k < 32; ++k) b[k] += r;
}

// CHECK-LABEL: define {{.*}}i64 @sum_locked(
long sum_locked(const long *b, long n) {
  // CHECK-NOT: __snag_loop_range_unchanged
  // CHECK: call void @__snag_read8(
  long s = 0;
  for (long i = 0; i < n; ++i) {
    lock();
    s += b[i];
  }
  return s;
}

// CHECK-LABEL: define {{.*}}i64 @chase(
long chase(long **p, long n) {
  // Each address comes from the previous load: no range to ask about.
  // CHECK-NOT: __snag_loop_range_unchanged
  // CHECK: call void @__snag_read8(
  long s = 0;
  for (long i = 0; i < n; ++i) {
    s += (long)*p;
    p = (long **)*p;
  }
  return s;
}
// CHECK-LABEL: define
