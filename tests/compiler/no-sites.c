// A module in which nothing gets instrumented gets no site table and no
// constructor. Here memory instrumentation is on, but the only access is to
// a constant table.
// RUN: SNAG_INSTRUMENT=memory

const int table[4] = {1, 2, 3, 4};

int lookup(int i) { return table[i & 3]; }

// CHECK-NOT: __snag
// CHECK-NOT: snag_sites
// CHECK-NOT: llvm.global_ctors
// CHECK: define {{.*}}i32 @lookup(
// CHECK-NOT: __snag
// CHECK-NOT: snag_sites
// CHECK-NOT: llvm.global_ctors
