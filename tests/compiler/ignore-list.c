// -fsanitize-ignorelist= (SNAG_IGNORELIST, set by the wrapper): a function
// the list names keeps its entry/exit and atomic hooks but gets no plain
// memory hooks and no sanitize_thread attribute; entries in a section for
// another sanitizer do not apply.
// RUN: SNAG_IGNORELIST=%S/inputs/ignore-list.txt -O1

int shared;

// CHECK-LABEL: define {{.*}}void @ignored_bump(
// CHECK: call void @__snag_func_entry(
// CHECK-NOT: call void @__snag_write4
// CHECK-NOT: call void @__snag_read4
// CHECK: call void @__snag_atomic_before(
// CHECK: ret void
void ignored_bump(int *flag) {
  shared++;
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

// CHECK-LABEL: define {{.*}}void @counted(
// CHECK: call void @__snag_read4(
// CHECK: call void @__snag_write4(
void counted(void) { shared++; }

