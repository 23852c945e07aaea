// Functions snag leaves alone (compiler/plugin/OptOut.h): those with
// __attribute__((disable_sanitizer_instrumentation)) or
// __attribute__((annotate("snag_no_instrument"))), naked functions, and
// snag's own __snag_* functions. No kind of hook goes into them, API
// marking included.
#include <vector>

int shared;
std::vector<int> items;
void callee();

// CHECK-LABEL: define {{.*}}void @_Z12instrumentedv()
// CHECK: call void @__snag_func_entry(
// CHECK: call void @__snag_write4(
// CHECK: call void @__snag_api_begin(
void instrumented() {
  shared = 1;
  items.push_back(1);
  callee();
}

// CHECK-LABEL: define {{.*}}void @_Z8disabledv()
// CHECK-NOT: __snag
// CHECK: ret void
__attribute__((disable_sanitizer_instrumentation)) void disabled() {
  shared = 2;
  items.push_back(2);
  callee();
}

// CHECK-LABEL: define {{.*}}void @_Z9annotatedv()
// CHECK-NOT: __snag
// CHECK: ret void
__attribute__((annotate("snag_no_instrument"))) void annotated() {
  shared = 3;
  items.push_back(3);
  callee();
}

// Another annotation does not opt out.
// CHECK-LABEL: define {{.*}}void @_Z5otherv()
// CHECK: call void @__snag_write4(
__attribute__((annotate("something_else"))) void other() { shared = 4; }

// CHECK-LABEL: define {{.*}}void @_Z5nakedv()
// CHECK-NOT: __snag
// CHECK: unreachable
__attribute__((naked)) void naked() { asm("ret"); }

// CHECK-LABEL: define {{.*}}void @__snag_helper()
// CHECK-NOT: call void @__snag
// CHECK: ret void
extern "C" void __snag_helper() {
  shared = 5;
  callee();
}
