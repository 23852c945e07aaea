// Every kind of instrumentation works at -O0 (where clang marks functions
// optnone and LLVM 14 still runs both of the plugin's extension points) and
// at -O3 (after heavy inlining and vectorization).
// RUN: -O0
// RUN: -O3
// RUN: check=O0 -O0
// RUN: check=O3 -O3
// RUN: check=TABLE -O0
// RUN: check=TABLE -O3
#include <atomic>
#include <vector>

std::vector<int> values;
std::atomic<int> ready;
int total;

// CHECK-LABEL: define {{.*}}void @_Z7produceii(
void produce(int from, int to) {
  // CHECK: call void @__snag_func_entry(
  // CHECK: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @values to i8*), i32 1,
  // CHECK: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @values to i8*),
  for (int i = from; i < to; ++i)
    values.push_back(i);
}

// CHECK-LABEL: define {{.*}}void @_Z7publishv(
void publish() {
  // CHECK: call void @__snag_atomic_before({{.*}}, i32 4, i32 1, i32 3,
  // CHECK-NEXT: store atomic i32 {{.*}} release
  // CHECK: call void @__snag_func_exit()
  ready.store(1, std::memory_order_release);
}

// CHECK-LABEL: define {{.*}}i32 @_Z7consumev(
int consume() {
  // CHECK: call void @__snag_atomic_before({{.*}}, i32 4, i32 0, i32 2,
  // CHECK-NEXT: load atomic i32, {{.*}} acquire
  // CHECK-NEXT: call void @__snag_atomic_after({{.*}}, i32 4, i32 0, i32 2, i32 2, i32 1,
  while (!ready.load(std::memory_order_acquire)) {
  }
  // CHECK: call void @__snag_read4(i8* bitcast (i32* @total to i8*)
  // CHECK: call void @__snag_write4(i8* bitcast (i32* @total to i8*)
  total += 1;
  return total;
}

// At -O0 the library's members stay out of line and are instrumented too.
// O0: define linkonce_odr {{.*}}@_ZNSt6vectorIiSaIiEE9push_backERKi(
// O0: call void @__snag_func_entry(
// At -O3 they are inlined into produce() and gone.
// O3-NOT: define {{.*}}@_ZNSt6vectorIiSaIiEE9push_backERKi(

// TABLE: @__snag_sites = private constant
// TABLE: @llvm.global_ctors = {{.*}}@snag.module_ctor
