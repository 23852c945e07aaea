// Within a basic block, an access to an address already instrumented by an
// earlier access of at least its size is skipped, unless a call came in
// between; a read does not cover a later write. (volatile keeps the
// optimizer from merging the accesses first.)
// RUN: SNAG_INSTRUMENT=memory

volatile int v;
void other(void);

// CHECK-LABEL: define {{.*}}i32 @repeat(
int repeat(void) {
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @v to i8*)
  // CHECK-NEXT: load volatile i32, i32* @v
  // CHECK-NOT: call void @__snag_
  // CHECK: load volatile i32, i32* @v
  int a = v;
  int b = v;
  // CHECK-NOT: call void @__snag_
  // CHECK: call void @__snag_write4(i8* bitcast (i32* @v to i8*)
  // CHECK-NEXT: store volatile i32 1, i32* @v
  // CHECK-NOT: call void @__snag_
  // CHECK: store volatile i32 2, i32* @v
  // CHECK-NOT: call void @__snag_
  // CHECK: load volatile i32, i32* @v
  v = 1;
  v = 2;
  int c = v;
  // CHECK-NOT: call void @__snag_
  // CHECK: call void @other()
  other();
  // CHECK-NEXT: call void @__snag_read4(i8* bitcast (i32* @v to i8*)
  // CHECK-NEXT: load volatile i32, i32* @v
  int d = v;
  return a + b + c + d;
}
