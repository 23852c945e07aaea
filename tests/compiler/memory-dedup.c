// Within a basic block, an access to an address already instrumented by an
// earlier access of at least its size is skipped, unless a call came in
// between; a read does not cover a later write. (-O0 keeps the optimizer
// from merging the accesses first.) A volatile access is never skipped and
// covers nothing: `snag explore` needs a scheduling point before each one.
// RUN: SNAG_INSTRUMENT=memory -O0

int v;
volatile int w;
void other(void);

// CHECK-LABEL: define {{.*}}i32 @repeat(
int repeat(void) {
  // (The write `v = 1` covers this read too: its hook is behind
  // __snag_every_access, memory-redundant.c.)
  // CHECK: load i32, i32* @__snag_every_access
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @v to i8*)
  // CHECK: load i32, i32* @v
  // CHECK-NOT: call void @__snag_
  // CHECK: load i32, i32* @v
  int a = v;
  int b = v;
  // CHECK-NOT: call void @__snag_
  // CHECK: call void @__snag_write4(i8* bitcast (i32* @v to i8*)
  // CHECK-NEXT: store i32 1, i32* @v
  // CHECK-NOT: call void @__snag_
  // CHECK: store i32 2, i32* @v
  // CHECK-NOT: call void @__snag_
  // CHECK: load i32, i32* @v
  v = 1;
  v = 2;
  int c = v;
  // CHECK-NOT: call void @__snag_
  // CHECK: call void @other()
  other();
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @v to i8*)
  // CHECK-NEXT: load i32, i32* @v
  int d = v;
  return a + b + c + d;
}

// CHECK-LABEL: define {{.*}}i32 @volatile_repeat(
int volatile_repeat(void) {
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @w to i8*)
  // CHECK-NEXT: load volatile i32, i32* @w
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @w to i8*)
  // CHECK-NEXT: load volatile i32, i32* @w
  int a = w;
  int b = w;
  // CHECK: call void @__snag_write4(i8* bitcast (i32* @w to i8*)
  // CHECK-NEXT: store volatile i32 1, i32* @w
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @w to i8*)
  // CHECK-NEXT: load volatile i32, i32* @w
  w = 1;
  int c = w;
  return a + b + c;
}
