// With exceptions: __snag_func_exit also runs before `resume`, and invokes
// get the call-site store like calls.
// RUN: SNAG_INSTRUMENT=functions

struct Guard {
  ~Guard();
};
void may_throw();

// CHECK-LABEL: define {{.*}}void @_Z7guardedv()
void guarded() {
  // CHECK: call void @__snag_func_entry(
  Guard g;
  // CHECK: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
  // CHECK-NEXT: invoke void @_Z9may_throwv()
  may_throw();
  // Normal path: the destructor call, then the exit hook.
  // CHECK: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
  // CHECK-NEXT: call void @_ZN5GuardD1Ev(
  // CHECK: call void @__snag_func_exit()
  // CHECK-NEXT: ret void
  // Exceptional path: the landing pad runs the destructor and resumes.
  // CHECK: landingpad
  // CHECK: call void @_ZN5GuardD1Ev(
  // CHECK: call void @__snag_func_exit()
  // CHECK-NEXT: resume
}
