// Memory no other thread can reach is not instrumented: locals whose address
// never escapes, and constant globals. An escaping local is instrumented.
// -O0 keeps every local in memory, so the allocas are still there.
// RUN: SNAG_INSTRUMENT=memory -O0

void take(int *p);

const int table[4] = {1, 2, 3, 4};
int counter;

// CHECK-LABEL: define {{.*}}i32 @private_local(i32 {{.*}}%x)
int private_local(int x) {
  // CHECK: %local = alloca i32
  int local = x;
  // Only the stores/loads of the parameter's spill slot and `local` happen
  // here, and neither escapes.
  // CHECK-NOT: call void @__snag_
  // CHECK: ret i32
  return local + 1;
}

// CHECK-LABEL: define {{.*}}i32 @escaping_local(
int escaping_local(int x) {
  // CHECK: %shared = alloca i32
  int shared = x;
  // CHECK: [[P:%.*]] = bitcast i32* %shared to i8*
  // CHECK-NEXT: call void @__snag_write4(i8* [[P]], i64 {{-?[0-9]+}})
  // CHECK-NEXT: store i32 {{.*}}, i32* %shared
  take(&shared);
  // CHECK: call void @take(
  // CHECK: [[Q:%.*]] = bitcast i32* %shared to i8*
  // CHECK-NEXT: call void @__snag_read4(i8* [[Q]], i64 {{-?[0-9]+}})
  // CHECK-NEXT: load i32, i32* %shared
  return shared;
}

// CHECK-LABEL: define {{.*}}i32 @constant_global(
int constant_global(int i) {
  // The load of the index from its (private) slot and the load from the
  // constant table are both left alone; the counter is not.
  // CHECK: getelementptr inbounds [4 x i32], [4 x i32]* @table
  // CHECK-NOT: call void @__snag_
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @counter to i8*)
  // CHECK-NEXT: load i32, i32* @counter
  // CHECK-NOT: call void @__snag_
  // CHECK: ret i32
  return table[i & 3] + counter;
}
