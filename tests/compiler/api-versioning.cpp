// A function whose loops call marked API members is split in two: the
// program's symbol checks __snag_api_calls_wanted after its allocas and,
// when no engine wants API calls, hands the call to an internal copy without
// any API hook (a musttail call with the same arguments); otherwise it runs
// on with its hooks unconditional. With a guard per hook instead, the loop
// kept its registers across a possible call (many_threads: a third of its
// time). A function without API calls in loops is not copied; a variadic
// one keeps a guard per hook; at -O0 (optnone) nothing is copied. Nor is a
// function whose API calls are all in loops with more than 64 loads and
// stores of their own (RaceFastPath.h, kMaxLoopAccessesChecked): such a
// loop spends its time elsewhere, and copying test bodies built that way
// (leveldb's db_test.cc) cost a seventh of the file's compile time.
// RUN: SNAG_INSTRUMENT=api check=CHECK -O1 -std=c++17
// RUN: SNAG_INSTRUMENT=api check=O0 -O0 -std=c++17
// RUN: SNAG_INSTRUMENT=api check=NOCOPY -O1 -std=c++17
// RUN: SNAG_INSTRUMENT=api,functions check=FRAMES -O1 -std=c++17
#include <cstdarg>
#include <cstddef>
#include <vector>

std::vector<long> v;

// CHECK-LABEL: define {{.*}}i64 @_Z3sumv()
// CHECK: [[WANTED:%.*]] = load i32, i32* @__snag_api_calls_wanted
// CHECK-NEXT: [[OFF:%.*]] = icmp eq i32 [[WANTED]], 0
// CHECK-NEXT: br i1 [[OFF]]
// CHECK: [[R:%.*]] = musttail call {{.*}}i64 @_Z3sumv.snag.no_api()
// CHECK-NEXT: ret i64 [[R]]
// CHECK: call void @__snag_api_begin(
// CHECK: {{^}}}
// The hand-over to the copy is no frame of its own: the function's entry
// hook comes after it, and the musttail call has neither an exit hook nor a
// call-site store before it, so the copy's frame keeps the caller's call
// site (stacks showed sum twice, once at its own first line).
// FRAMES-LABEL: define {{.*}}i64 @_Z3sumv()
// FRAMES-NOT: __snag
// FRAMES: load i32, i32* @__snag_api_calls_wanted
// FRAMES-NOT: __snag
// FRAMES: musttail call {{.*}}i64 @_Z3sumv.snag.no_api()
// FRAMES-NEXT: ret i64
// FRAMES: call void @__snag_func_entry(
// FRAMES: {{^}}}
long sum() {
  long s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i];
  return s;
}

// A variadic function cannot forward its arguments with musttail.
// CHECK-LABEL: define {{.*}}i64 @_Z9sum_countiz(
// CHECK-NOT: musttail
// CHECK: load i32, i32* @__snag_api_calls_wanted
// CHECK: {{^}}}
long sum_count(int n, ...) {
  long s = n;
  for (std::size_t i = 0; i < v.size(); ++i) s += v[i];
  return s;
}

// 65 stores of its own: no tight loop. Its hook runs behind the flag.
// CHECK-LABEL: define {{.*}}void @_Z8big_loopPll(
// CHECK-NOT: musttail
// CHECK: load i32, i32* @__snag_api_calls_wanted
// CHECK-NOT: musttail
// CHECK: call void @__snag_api_begin(
// CHECK-NOT: musttail
// CHECK: {{^}}}
// NOCOPY-NOT: @_Z8big_loopPll.snag.no_api
#define STORE(k) p[i * 65 + k] = k;
#define STORE5(k) STORE(k) STORE(k + 1) STORE(k + 2) STORE(k + 3) STORE(k + 4)
#define STORE25(k) STORE5(k) STORE5(k + 5) STORE5(k + 10) STORE5(k + 15) STORE5(k + 20)
void big_loop(long *p, long n) {
  for (long i = 0; i < n; ++i) {
    STORE25(0) STORE25(25) STORE5(50) STORE5(55) STORE5(60)
    p[i * 65 + 64] += static_cast<long>(v.size());
  }
}

// Outside a loop a hook is a plain call and nothing is copied.
// CHECK-LABEL: define {{.*}}i64 @_Z5firstv()
// CHECK-NOT: __snag_api_calls_wanted
// CHECK: {{^}}}
long first() { return v.empty() ? 0 : v.front(); }

// The copy: the same loop without a hook.
// CHECK-LABEL: define internal {{.*}}i64 @_Z3sumv.snag.no_api()
// CHECK-NOT: __snag_api
// CHECK: {{^}}}

// O0-NOT: snag.no_api
