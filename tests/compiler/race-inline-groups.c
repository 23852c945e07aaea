// Accesses through one base pointer that an earlier one (the group's head)
// precedes on every path, with nothing between that could synchronize, are
// answered by one inline check before the head (AccessGroups.h): does the
// range covering all their bytes lie in a coarse block the thread remembers
// whose state needs no work for the strongest of them? When it does, no
// member runs its own check or hook; when not, each checks for itself as
// before. Members share their head's innermost loop (a head in a loop
// would ask on every iteration for a member past the loop's exit). Outside
// loops, where an access gets no check of its own, a
// group's check stands for its members' hook calls. A local or global
// variable is no heap block, and its accesses form no group.
// SNAG_RACE_INLINE without "groups" turns the group check off.
// RUN: SNAG_INSTRUMENT=memory check=CHECK
// RUN: SNAG_INSTRUMENT=memory SNAG_RACE_INLINE=blocks,owner,loops check=OFF

// OFF-NOT: snag.group

struct item {
  long key;
  long value;
  int count;
};
void other(void);

// Three fields of one item, one of them written: one check of bytes
// [it, it + 20) for a write, then each member's hook (and own check) only
// when it said no. The reads of `value` and `count` are covered by the
// writes after them (memory-redundant.c) and are no members.
// CHECK-LABEL: define {{.*}}void @bump(
// CHECK: call void @other()
// CHECK: [[LO:%snag.group.lo[0-9]*]] = add i64 {{%.*}}, 0
// CHECK: load i64, {{.*}}@__snag_fast_path
// The remembered blocks, each with the range's 20 bytes.
// CHECK: add i64 [[LO]], 20
// CHECK: icmp uge i64 [[LO]],
// CHECK: add i64 [[LO]], 20
// CHECK: icmp uge i64 [[LO]],
// A write: no Shared-Read word passes, so no lockset load.
// CHECK-NOT: snag.locks
// CHECK: [[YES:%snag.group.yes[0-9]*]] = phi i1
// CHECK-SAME: [ false, %snag.group.no ]
// CHECK-NEXT: [[ASK:%snag.group.ask[0-9]*]] = xor i1 [[YES]], true
// CHECK-NEXT: br i1 [[ASK]]
// CHECK: call void @__snag_read8(
// CHECK: xor i1 [[YES]], true
// CHECK: call void @__snag_write8(
// CHECK: xor i1 [[YES]], true
// CHECK: call void @__snag_write4(
// CHECK-LABEL: define {{.*}}void @split_by_call(
void bump(struct item **items, long n) {
  for (long i = 0; i < n; ++i) {
    other();
    struct item *it = items[i];
    it->value += it->key;
    it->count++;
  }
}

// A call between two accesses may synchronize: no group.
// CHECK-NOT: snag.group
// CHECK-LABEL: define {{.*}}i64 @reads_on_two_paths(
void split_by_call(struct item **items, long n) {
  for (long i = 0; i < n; ++i) {
    struct item *it = items[i];
    it->key = 1;
    other();
    it->value = 2;
  }
}

// Reads only, one of them in a block the head dominates (the next item's
// key, at offset 24): the range [it, it + 32) for a read, whose answer also
// takes a Shared-Read word with no lock or the thread's locks.
// CHECK: [[LO2:%snag.group.lo[0-9]*]] = add i64 {{%.*}}, 0
// CHECK: add i64 [[LO2]], 32
// CHECK: snag.locks
// CHECK: [[YES2:%snag.group.yes[0-9]*]] = phi i1
// CHECK: xor i1 [[YES2]], true
// CHECK: call void @__snag_read8(
// CHECK: xor i1 [[YES2]], true
// CHECK: call void @__snag_read8(
// CHECK: xor i1 [[YES2]], true
// CHECK: call void @__snag_read4(
// CHECK: xor i1 [[YES2]], true
// CHECK: call void @__snag_read8(
long reads_on_two_paths(struct item **items, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) {
    other();
    struct item *it = items[i];
    s += it->key * it->value;
    if (it->count > 3)
      s += it[1].key;
  }
  return s;
}

// Outside a loop: one check for the three fields' writes; the hooks run
// only when it says no, with no check of their own.
// CHECK-LABEL: define {{.*}}void @set_fields(
// CHECK: [[LO3:%snag.group.lo[0-9]*]] = add i64 {{%.*}}, 0
// CHECK: add i64 [[LO3]], 20
// CHECK: [[YES3:%snag.group.yes[0-9]*]] = phi i1
// CHECK-NEXT: [[ASK3:%.*]] = xor i1 [[YES3]], true
// CHECK-NEXT: br i1 [[ASK3]], label %[[HOOK3:[^,]*]], label
// CHECK: [[HOOK3]]:
// CHECK-NOT: snag.epoch
// CHECK: call void @__snag_write8(
// CHECK: xor i1 [[YES3]], true
// CHECK: call void @__snag_write8(
// CHECK: xor i1 [[YES3]], true
// CHECK: call void @__snag_write4(
// CHECK-NOT: snag.epoch
// CHECK-LABEL: define {{.*}}void @fill_global(
void set_fields(struct item *it) {
  it->key = 1;
  it->value = 2;
  it->count = 3;
}

// A global (or a local whose address escapes): no group.
// CHECK-NOT: snag.group
// CHECK: ret void
struct item global_item;
void fill_global(void) {
  global_item.key = 1;
  global_item.value = 2;
  global_item.count = 3;
}

// The key is read in the loop, the value once past its exit: no group (the
// check would run on every iteration, for one access after the loop).
// CHECK-LABEL: define {{.*}}i64 @find(
// CHECK-NOT: snag.group
struct kv {
  long first, second;
};
long find(struct kv *items, long n, long key) {
  for (long i = 0; i < n; ++i) {
    other();
    if (items[i].first == key)
      return items[i].second;
  }
  return -1;
}
