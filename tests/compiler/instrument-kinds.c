// SNAG_INSTRUMENT switches each kind of instrumentation on its own; the
// kinds left out are not instrumented at all. Each kind has two runs: one
// checks its hooks are there, one that no other kind's hooks are.
// RUN: SNAG_INSTRUMENT=memory check=CHECK,MEMORY
// RUN: SNAG_INSTRUMENT=memory check=NO-ATOMICS,NO-MEMOPS,NO-FUNCTIONS,NO-API
// RUN: SNAG_INSTRUMENT=atomics check=CHECK,ATOMICS
// RUN: SNAG_INSTRUMENT=atomics check=NO-MEMORY,NO-MEMOPS,NO-FUNCTIONS,NO-API
// RUN: SNAG_INSTRUMENT=memops check=CHECK,MEMOPS
// RUN: SNAG_INSTRUMENT=memops check=NO-MEMORY,NO-ATOMICS,NO-FUNCTIONS,NO-API
// RUN: SNAG_INSTRUMENT=functions check=CHECK,FUNCTIONS
// RUN: SNAG_INSTRUMENT=functions check=NO-MEMORY,NO-ATOMICS,NO-MEMOPS,NO-API
// RUN: SNAG_INSTRUMENT=memory,atomics check=CHECK,MEMORY,ATOMICS
// RUN: SNAG_INSTRUMENT=memory,atomics check=NO-MEMOPS,NO-FUNCTIONS,NO-API
// Unset means all.
// RUN: check=CHECK,MEMORY,ATOMICS,MEMOPS,FUNCTIONS
// RUN: SNAG_INSTRUMENT=all check=CHECK,MEMORY,ATOMICS,MEMOPS,FUNCTIONS
// `none` leaves the module alone: no hooks, no site table, no constructor.
// RUN: SNAG_INSTRUMENT=none check=NONE
// The api kind is tested with C++ in instrument-kinds-api.cpp.
#include <stdatomic.h>
#include <string.h>

int plain;
_Atomic int counter;
char dst[32], src[32];
void callee(void);

// CHECK-LABEL: define {{.*}}void @work(
void work(void) {
  // FUNCTIONS: call void @__snag_func_entry(
  // MEMORY: call void @__snag_write4(i8* bitcast (i32* @plain to i8*)
  plain = 1;
  // ATOMICS: call void @__snag_atomic_before(i8* bitcast (i32* @counter to i8*)
  // ATOMICS: call void @__snag_atomic_after(i8* bitcast (i32* @counter to i8*)
  atomic_fetch_add(&counter, 1);
  // ATOMICS: call void @__snag_fence(i32 5,
  atomic_thread_fence(memory_order_seq_cst);
  // MEMOPS: call void @__snag_read_range({{.*}}@src
  // MEMOPS: call void @__snag_write_range({{.*}}@dst
  memcpy(dst, src, sizeof dst);
  // FUNCTIONS: store i64 {{-?[0-9]+}}, i64* @__snag_call_site
  // FUNCTIONS-NEXT: call void @callee()
  callee();
  // FUNCTIONS: call void @__snag_func_exit()
}

// NO-MEMORY-NOT: call void @__snag_read{{[0-9]+}}(
// NO-MEMORY-NOT: call void @__snag_write{{[0-9]+}}(
// NO-ATOMICS-NOT: @__snag_atomic
// NO-ATOMICS-NOT: @__snag_fence
// NO-MEMOPS-NOT: @__snag_read_range
// NO-MEMOPS-NOT: @__snag_write_range
// NO-FUNCTIONS-NOT: @__snag_func_entry
// NO-FUNCTIONS-NOT: @__snag_func_exit
// NO-FUNCTIONS-NOT: @__snag_call_site
// NO-API-NOT: @__snag_api
// NONE-NOT: __snag
// NONE-NOT: snag_sites
// NONE-NOT: llvm.global_ctors
