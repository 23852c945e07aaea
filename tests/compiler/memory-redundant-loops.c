// Coverage across blocks and loops at -O1 (RedundantAccesses.h): a fact
// about an address computed in a loop dies where the next iteration
// computes it again, so each node of a list walk keeps its hooks.
// RUN: SNAG_INSTRUMENT=memory

struct node {
  int value;
  struct node *next;
};

// CHECK-LABEL: define {{.*}}i32 @list_sum(
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_read4(
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_read8(
// CHECK-NOT: @__snag_every_access
// CHECK: ret i32
int list_sum(struct node *n) {
  int sum = 0;
  while (n) {
    sum += n->value;
    n = n->next;
  }
  return sum;
}

// The check's read covers the re-read in the branch (another block, same
// address; the store through q, which may alias p[1], makes the optimizer
// load again but does not synchronize): behind the flag, so that snag
// explore still schedules there.
// CHECK-LABEL: define {{.*}}i32 @check_then_use(
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_read4(
// CHECK-NOT: @__snag_every_access
// CHECK: call void @__snag_write4(
// CHECK-NEXT: store i32 5
// CHECK-NEXT: load i32, i32* @__snag_every_access
// CHECK: call void @__snag_read4(
// CHECK: ret i32
int check_then_use(int *p, int *q, int c) {
  int x = p[1];
  if (x > c) {
    *q = 5;
    return p[1] + x;
  }
  return 0;
}
