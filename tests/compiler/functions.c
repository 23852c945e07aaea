// Function entry calls __snag_func_entry(function site, frame address);
// every return is preceded by __snag_func_exit(); every call that is not an
// intrinsic or a snag hook is preceded by a store of its site into the
// thread-local __snag_call_site.
// RUN: SNAG_INSTRUMENT=functions

// CHECK: @__snag_call_site = external thread_local(initialexec) global i64

int leaf(int x);
int (*indirect)(int);

// CHECK-LABEL: define {{.*}}i32 @calls(
int calls(int x) {
  // CHECK-NEXT: entry:
  // CHECK-NEXT: [[FRAME:%.*]] = call i8* @llvm.frameaddress.p0i8(i32 0)
  // CHECK-NEXT: call void @__snag_func_entry(i64 {{-?[0-9]+}}, i8* [[FRAME]])
  // CHECK: store i64 [[S1:-?[0-9]+]], i64* @__snag_call_site
  // CHECK-NEXT: call i32 @leaf(
  // CHECK: store i64 [[S2:-?[0-9]+]], i64* @__snag_call_site
  // CHECK-NEXT: call i32 %{{.*}}(
  // CHECK-NOT: store i64 [[S1]], i64* @__snag_call_site
  // CHECK-NOT: store i64 [[S2]], i64* @__snag_call_site
  // CHECK: call void @__snag_func_exit()
  // CHECK-NEXT: ret i32
  return leaf(x) + indirect(x);
}

// The intrinsic call gets no call-site store.
// CHECK-LABEL: define {{.*}}void @intrinsic(
void intrinsic(char *buf) {
  // CHECK: call void @__snag_func_entry(
  // CHECK-NOT: @__snag_call_site
  // CHECK: call void @llvm.memset
  // CHECK-NEXT: call void @__snag_func_exit()
  // CHECK-NEXT: ret void
  __builtin_memset(buf, 0, 16);
}

// A musttail call must stay right before its return: the exit hook goes
// before the call, and the call-site store stays next to the call. (Two of
// them, so that there are two returns, each with its exit hook.)
// CHECK-LABEL: define {{.*}}i32 @tail(
int tail(int x) {
  // CHECK: call void @__snag_func_exit()
  // CHECK-NEXT: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
  // CHECK-NEXT: musttail call i32 @leaf(i32 noundef 1)
  // CHECK-NEXT: ret i32
  if (x > 0)
    __attribute__((musttail)) return leaf(1);
  // CHECK: call void @__snag_func_exit()
  // CHECK-NEXT: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
  // CHECK-NEXT: musttail call i32 @leaf(i32 noundef 2)
  // CHECK-NEXT: ret i32
  __attribute__((musttail)) return leaf(2);
}

// Different calls have different sites.
// CHECK-LABEL: define {{.*}}void @sites_differ(
void sites_differ(void) {
  // CHECK: store i64 [[A:-?[0-9]+]], i64* @__snag_call_site
  // CHECK-NEXT: call i32 @leaf(i32 noundef 1)
  // CHECK-NOT: store i64 [[A]], i64* @__snag_call_site
  // CHECK: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
  // CHECK-NEXT: call i32 @leaf(i32 noundef 2)
  leaf(1);
  leaf(2);
}

// Plain accesses are not instrumented with only `functions`.
// CHECK-NOT: call void @__snag_read
// CHECK-NOT: call void @__snag_write
