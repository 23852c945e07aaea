// Across basic blocks, an access that an earlier access to the same bytes
// covers on every path, with no call, atomic, fence or volatile access on
// any path between, keeps its hook behind a load of __snag_every_access
// (RedundantAccesses.h): the race engine skips it, explore and the other
// engines still see it. (-O0 keeps the optimizer from merging the accesses
// first.)
// RUN: SNAG_INSTRUMENT=memory,atomics -O0

int g, h;
int arr[4];
struct pair { int a, b; } s;
volatile int w;
int flag;
void other(void);

// The read in the `then` block and both reads after the merge (h is written
// on both paths) are covered.
// CHECK-LABEL: define {{.*}}i32 @if_else(
// CHECK: call void @__snag_write4(i8* bitcast (i32* @g to i8*)
// CHECK: if.then:
// CHECK-NEXT: [[F1:%[0-9]+]] = load i32, i32* @__snag_every_access
// CHECK-NEXT: [[ON1:%[0-9]+]] = icmp ne i32 [[F1]], 0
// CHECK-NEXT: br i1 [[ON1]]
// CHECK: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_write4(i8* bitcast (i32* @h to i8*)
// CHECK: if.else:
// CHECK-NEXT: call void @__snag_write4(i8* bitcast (i32* @h to i8*)
// CHECK: if.end:
// CHECK-NEXT: load i32, i32* @__snag_every_access
// CHECK: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
// CHECK: load i32, i32* @__snag_every_access
// CHECK: call void @__snag_read4(i8* bitcast (i32* @h to i8*)
int if_else(int c) {
  g = 1;
  if (c)
    h = g;
  else
    h = 2;
  return g + h;
}

// A call on one path: the read after the merge keeps its hook.
// CHECK-LABEL: define {{.*}}i32 @call_on_one_path(
// CHECK-NOT: @__snag_every_access
// CHECK: call void @other()
// CHECK-NOT: @__snag_every_access
// CHECK: if.end:
// CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
int call_on_one_path(int c) {
  g = 1;
  if (c)
    other();
  return g;
}

// CHECK-LABEL: define {{.*}}i32 @atomic_on_one_path(
// CHECK-NOT: @__snag_every_access
// CHECK: load atomic i32, i32* @flag acquire
// CHECK-NOT: @__snag_every_access
// CHECK: if.end:
// CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
int atomic_on_one_path(int c) {
  g = 1;
  if (c)
    __atomic_load_n(&flag, __ATOMIC_ACQUIRE);
  return g;
}

// A volatile access may be a hand-made flag: it ends coverage like an atomic.
// CHECK-LABEL: define {{.*}}i32 @volatile_on_one_path(
// CHECK-NOT: @__snag_every_access
// CHECK: store volatile i32 2, i32* @w
// CHECK-NOT: @__snag_every_access
// CHECK: if.end:
// CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
int volatile_on_one_path(int c) {
  g = 1;
  if (c)
    w = 2;
  return g;
}

// CHECK-LABEL: define {{.*}}i32 @read_does_not_cover_write(
// CHECK-NOT: @__snag_every_access
// CHECK: if.then:
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_write4(i8* bitcast (i32* @g to i8*)
int read_does_not_cover_write(int c) {
  int x = g;
  if (c)
    g = x + 1;
  return x;
}

// The write before the loop covers the read in every iteration: nothing in
// the loop synchronizes, so the back edge keeps the fact.
// CHECK-LABEL: define {{.*}}i32 @loop_without_call(
// CHECK: call void @__snag_write4(i8* bitcast (i32* @g to i8*)
// CHECK: for.body:
// CHECK-NEXT: load i32, i32* @__snag_every_access
// CHECK: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
int loop_without_call(int n) {
  int sum = 0;
  g = 1;
  for (int i = 0; i < n; i++)
    sum += g;
  return sum;
}

// The call in the body reaches the read again through the back edge.
// CHECK-LABEL: define {{.*}}i32 @loop_with_call(
// CHECK-NOT: @__snag_every_access
// CHECK: for.body:
// CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
// CHECK-NOT: @__snag_every_access
// CHECK: call void @other()
int loop_with_call(int n) {
  int sum = 0;
  g = 1;
  for (int i = 0; i < n; i++) {
    sum += g;
    other();
  }
  return sum;
}

// s.a's write covers a later read of s.a (base @s, offset 0), not of s.b.
// CHECK-LABEL: define {{.*}}i32 @offsets(
// CHECK: call void @__snag_write4(i8* bitcast (%struct.pair* @s to i8*)
// CHECK: if.then:
// CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* getelementptr inbounds (%struct.pair, %struct.pair* @s, i32 0, i32 1) to i8*)
// CHECK: if.end:
// CHECK-NEXT: load i32, i32* @__snag_every_access
// CHECK: call void @__snag_read4(i8* bitcast (%struct.pair* @s to i8*)
int offsets(int c) {
  s.a = 1;
  if (c)
    return s.b;
  return s.a;
}

// A volatile access is never covered: each one is asked for.
// CHECK-LABEL: define {{.*}}i32 @volatile_kept(
// CHECK-NOT: @__snag_every_access
// CHECK: if.then:
// CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* @w to i8*)
// CHECK-NEXT: load volatile i32, i32* @w
// CHECK-NOT: @__snag_every_access
// CHECK: ret i32
int volatile_kept(int c) {
  w = 1;
  if (c)
    return w;
  return 0;
}

// Within a block, a later write to the same bytes with nothing between that
// could synchronize covers a read (the write races with whatever the read
// races with); a call between keeps the read's hook.
// CHECK-LABEL: define {{.*}}void @read_then_write(
// CHECK: load i32, i32* @__snag_every_access
// CHECK: call void @__snag_read4(i8* bitcast (i32* @g to i8*)
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_write4(i8* bitcast (i32* @g to i8*)
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_read4(i8* bitcast (i32* @h to i8*)
// CHECK: call void @other()
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_write4(i8* bitcast (i32* @h to i8*)
// CHECK: ret void
void read_then_write(void) {
  g = g + 1;
  int x = h;
  other();
  h = x + 1;
}
// CHECK-LABEL: !llvm.dbg.cu
