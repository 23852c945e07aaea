// The race engine's commonest "nothing to do" answer is checked inline
// before an access hook (compiler/plugin/RaceFastPath.h), and the hook is
// called only when the check fails: the thread's epoch word (0: the fast
// path is off; no owner test passes then, and the Shared-Read test asks it
// first), then its remembered coarse blocks (the record's range, fine flag
// and state), then the granule's direct-mapped state word (its slot's
// offset, 0: no shadow yet, the hook). A local's or a global's access asks
// the granule's word alone: no heap block holds it. A state word passes
// when it is an Exclusive word of this thread in its epoch with the bytes
// (and for a write the "wrote" bit), or, asked only when it is not, for a
// read a Shared-Read word with no lock or the thread's locks.
// By default only accesses in loops get the check; SNAG_RACE_INLINE picks
// the checks and their order.
// RUN: SNAG_INSTRUMENT=memory check=CHECK,LOOPS
// RUN: SNAG_INSTRUMENT=memory SNAG_RACE_INLINE=blocks,owner check=CHECK,ALL
// RUN: SNAG_INSTRUMENT=memory SNAG_RACE_INLINE=none check=NONE
// RUN: SNAG_INSTRUMENT=memory SNAG_RACE_INLINE=blocks,bogus expect=error check=ERROR

// ERROR: snag: SNAG_RACE_INLINE: unknown word 'bogus'
// NONE-NOT: __snag_fast_path
// NONE-NOT: __snag_slot_offset

// CHECK-LABEL: define {{.*}}i64 @sum(
long sum(const long *b, long n) {
  // The epoch word is loaded, not tested: remembered block 0 ({start, end,
  // record} at offset 16) comes next.
  // CHECK: [[ADDR:%snag.addr[0-9]*]] = ptrtoint
  // CHECK-NEXT: [[EPOCH:%snag.epoch[0-9]*]] = load i64, {{.*}}@__snag_fast_path
  // CHECK-NEXT: [[START:%snag.start[0-9]*]] = load i64, {{.*}}@__snag_fast_path {{.*}} i64 16)
  // CHECK-NEXT: [[END:%snag.end[0-9]*]] = load i64, {{.*}}@__snag_fast_path {{.*}} i64 24)
  // CHECK-NEXT: [[LAST:%.*]] = add i64 [[ADDR]], 8
  // CHECK-NEXT: icmp ule i64 [[LAST]], [[END]]
  // CHECK-NEXT: icmp uge i64 [[ADDR]], [[START]]
  // CHECK: [[HOOK:snag.hook[0-9]*]]:
  // CHECK-NEXT: call void @__snag_read8(
  // CHECK-NEXT: br label %[[DONE:[^ ,]*]]
  // Remembered block 1 at offset 40.
  // CHECK: load i64, {{.*}}@__snag_fast_path {{.*}} i64 40)
  // The record of block 0: fine flag (byte 2), state (acquire, byte 8),
  // start (byte 16) and size (32 bits at byte 4: the record's header is 32
  // bytes).
  // CHECK: [[BLOCK:%snag.block[0-9]*]] = load i8*, {{.*}}@__snag_fast_path {{.*}} i64 32)
  // CHECK-NEXT: [[FINEP:%.*]] = getelementptr inbounds i8, i8* [[BLOCK]], i64 2
  // CHECK-NEXT: load atomic i8, i8* [[FINEP]] monotonic
  // CHECK: [[STATE:%snag.state[0-9]*]] = load atomic i64, {{.*}} acquire
  // CHECK-NEXT: getelementptr inbounds i8, i8* [[BLOCK]], i64 16
  // CHECK: [[BSTART:%snag.block.start[0-9]*]] = load atomic i64, {{.*}} monotonic, align 8
  // CHECK-NEXT: getelementptr inbounds i8, i8* [[BLOCK]], i64 4
  // CHECK: [[BSIZE:%snag.block.size[0-9]*]] = load atomic i32, {{.*}} monotonic, align 4
  // CHECK-NEXT: [[BSIZE64:%.*]] = zext i32 [[BSIZE]] to i64
  // CHECK-NEXT: add i64 [[BSTART]], [[BSIZE64]]
  // A record with another range: the hook.
  // CHECK: br i1 {{.*}}, label %{{.*}}, label %[[HOOK]]
  // A block's state counts all 8 bytes as touched (0xff0); owner bits
  // 12-63 equal the epoch word; the kind one of the Exclusive kinds (1, 2,
  // 5). The state without its "wrote" bit (-9: kind bits kept), xor-ed
  // with the epoch word and the bytes, leaves just the kind when the owner
  // and bytes match: 1 or 2 (one compare after a decrement) or 5. The
  // owner's word passes first, on its own.
  // CHECK: [[EXPECT:%.*]] = or i64 [[EPOCH]], 4080
  // CHECK-NEXT: [[MASKED:%.*]] = and i64 [[STATE]], -9
  // CHECK-NEXT: [[LEFT:%snag.left[0-9]*]] = xor i64 [[MASKED]], [[EXPECT]]
  // CHECK-NEXT: [[LEFT1:%.*]] = add i64 [[LEFT]], -1
  // CHECK-NEXT: icmp ult i64 [[LEFT1]], 2
  // CHECK-NEXT: icmp eq i64 [[LEFT]], 5
  // CHECK: br i1 {{.*}}, label %[[DONE]], label %[[SHARED:snag.shared[0-9]*]]
  // Only then, for a read, a Shared-Read word without a lock (3) or with
  // the thread's locks (offset 8).
  // CHECK: [[SHARED]]:
  // CHECK-NEXT: [[ON:%.*]] = icmp ne i64 [[EPOCH]], 0
  // CHECK-NEXT: br i1 [[ON]], label %{{.*}}, label %[[HOOK]]
  // CHECK: [[LOCKS:%snag.locks[0-9]*]] = load i32, {{.*}}@__snag_fast_path {{.*}} i64 8)
  // CHECK-NEXT: [[LOCKS64:%.*]] = zext i32 [[LOCKS]] to i64
  // CHECK-NEXT: [[LOCKSAT:%.*]] = shl i64 [[LOCKS64]], 32
  // CHECK-NEXT: [[MINE:%.*]] = or i64 [[LOCKSAT]], 3
  // CHECK-NEXT: icmp eq i64 [[STATE]], 3
  // CHECK-NEXT: icmp eq i64 [[STATE]], [[MINE]]
  // CHECK: br i1 {{.*}}, label %[[DONE]], label %[[HOOK]]
  // The granule's own state word.
  // CHECK: [[SLOT:%.*]] = lshr i64 [[ADDR]], 39
  // CHECK-NEXT: icmp ult i64 [[SLOT]], 256
  // CHECK: getelementptr inbounds [256 x i64], [256 x i64]* @__snag_slot_offset, i64 0, i64 [[SLOT]]
  // CHECK-NEXT: [[OFFSET:%snag.slot.offset[0-9]*]] = load atomic i64, {{.*}} acquire
  // CHECK-NEXT: icmp ne i64 [[OFFSET]], 0
  // CHECK: [[GRANULE:%.*]] = and i64 [[ADDR]], -8
  // CHECK-NEXT: [[CELL:%.*]] = add i64 [[GRANULE]], [[OFFSET]]
  // CHECK-NEXT: [[CELLP:%.*]] = inttoptr i64 [[CELL]] to i64*
  // CHECK-NEXT: load atomic i64, i64* [[CELLP]] acquire
  // CHECK: br i1 {{.*}}, label %[[DONE]], label %[[HOOK]]
  // CHECK: [[DONE]]:
  // CHECK: load i64, i64* %arrayidx
  long s = 0;
  for (long i = 0; i < n; ++i) s += b[i * 2];
  return s;
}

// A 4-byte write outside a loop: checked only when asked for all accesses.
// Its bytes in the granule are 0xf << (addr & 7), in bits 4-11, and the
// "wrote" bit (8) must be set.
// CHECK-LABEL: define {{.*}}void @put(
void put(int *p, int v) {
  // LOOPS-NOT: __snag_fast_path
  // LOOPS: call void @__snag_write4(
  // ALL: [[ADDR:%snag.addr[0-9]*]] = ptrtoint
  // ALL: call void @__snag_write4(
  // ALL: [[OFFSET:%snag.slot.offset[0-9]*]] = load atomic i64
  // ALL: [[WORD:%snag.word[0-9]*]] = load atomic i64
  // ALL-NEXT: [[IN:%.*]] = and i64 [[ADDR]], 7
  // ALL-NEXT: [[SHIFT:%.*]] = add i64 [[IN]], 4
  // ALL-NEXT: [[NEED:%.*]] = shl i64 15, [[SHIFT]]
  // ALL-NEXT: [[NEEDW:%.*]] = or i64 [[NEED]], 8
  // ALL-NEXT: [[MASK:%.*]] = or i64 [[NEEDW]], -4089
  // ALL-NEXT: [[EXPECT:%.*]] = or i64 %snag.epoch{{[0-9]*}}, [[NEEDW]]
  // ALL-NEXT: [[MASKED:%.*]] = and i64 [[WORD]], [[MASK]]
  // ALL-NEXT: [[LEFT:%snag.left[0-9]*]] = xor i64 [[MASKED]], [[EXPECT]]
  // ALL-NEXT: [[LEFT1:%.*]] = add i64 [[LEFT]], -1
  // ALL-NEXT: icmp ult i64 [[LEFT1]], 2
  // ALL-NEXT: icmp eq i64 [[LEFT]], 5
  // A write never passes on a Shared-Read word.
  // ALL-NOT: icmp eq i64 [[WORD]], 3
  // ALL: {{^}}}
  *p = v;
}

// An access that may straddle two granules (a packed field: align 1) is
// never checked inline.
struct __attribute__((packed)) Packed {
  char c;
  int x;
};
// CHECK-LABEL: define {{.*}}i32 @packed(
int packed(struct Packed *p, long n) {
  // CHECK-NOT: __snag_fast_path
  // CHECK: call void @__snag_read4(
  // CHECK-NOT: __snag_fast_path
  // CHECK: {{^}}}
  int s = 0;
  for (long i = 0; i < n; ++i) s += p[i].x;
  return s;
}

// A local whose address escapes and a global, read in a loop: no heap
// block holds either, so the check goes from the epoch word straight to
// the granule's word (no remembered block's range is loaded).
void publish(long *p);
void use(long v);
long counter;
// CHECK-LABEL: define {{.*}}void @local_and_global(
void local_and_global(long n) {
  long local = 0;
  publish(&local);
  // CHECK: [[ADDR:%snag.addr[0-9]*]] = ptrtoint
  // CHECK-NEXT: load i64, {{.*}}@__snag_fast_path
  // CHECK-NEXT: lshr i64 [[ADDR]], 39
  // CHECK-NOT: snag.start
  // CHECK: call void @__snag_read8(
  // CHECK-NOT: snag.start
  // CHECK: load i64, {{.*}}@__snag_fast_path
  // CHECK-NEXT: br i1 icmp ult (i64 lshr (i64 ptrtoint (i64* @counter to i64), i64 39), i64 256)
  // CHECK-NOT: snag.start
  // CHECK: call void @__snag_read8(i8* bitcast (i64* @counter
  // CHECK-NOT: snag.start
  // CHECK: {{^}}}
  for (long i = 0; i < n; ++i)
    use(local + counter);
}
