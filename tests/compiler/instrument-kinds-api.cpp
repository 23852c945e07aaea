// SNAG_INSTRUMENT=api marks API calls and nothing else; leaving `api` out
// of the list leaves them unmarked.
// RUN: SNAG_INSTRUMENT=api check=API
// RUN: SNAG_INSTRUMENT=api check=TABLE
// RUN: SNAG_INSTRUMENT=api check=NO-OTHERS
// RUN: SNAG_INSTRUMENT=memory,atomics,memops,functions check=NO-API
#include <vector>

std::vector<int> numbers;

// API-LABEL: define {{.*}}void @_Z4workv()
void work() {
  // API: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @numbers to i8*), i32 1,
  // API: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @numbers to i8*),
  numbers.push_back(1);
}

// The site table and its constructor are written for API sites alone too.
// TABLE: @__snag_sites = private constant
// TABLE: @llvm.global_ctors = {{.*}}@snag.module_ctor

// NO-OTHERS-NOT: call void @__snag_read
// NO-OTHERS-NOT: call void @__snag_write
// NO-OTHERS-NOT: @__snag_atomic
// NO-OTHERS-NOT: @__snag_fence
// NO-OTHERS-NOT: @__snag_func_entry
// NO-OTHERS-NOT: @__snag_call_site
// NO-API-NOT: @__snag_api
