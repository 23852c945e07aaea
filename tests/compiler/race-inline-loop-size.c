// A loop whose own blocks hold more than 64 accesses (compiler/plugin/
// RaceFastPath.h, kMaxLoopAccessesChecked) is no tight loop: its accesses
// call their hook directly, as accesses outside loops do, while a subloop
// of it, counted on its own, keeps its checks. leveldb's db_test.cc wraps
// each test body in a do { ... } while over configurations; the checks of
// those bodies made the file take 6x a plain build's CPU time.
// RUN: SNAG_INSTRUMENT=memory
// RUN: SNAG_INSTRUMENT=memory SNAG_RACE_INLINE=blocks,owner check=ALL

// CHECK-LABEL: define {{.*}}void @big_loop(
// ALL-LABEL: define {{.*}}void @big_loop(
void big_loop(long *p, long *q, long n) {
  for (long i = 0; i < n; ++i) {
    // The inner loop's store only: one check in the function.
    // CHECK: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
    // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
    // (The blocks are not in source order: ret comes before the loops.)
    // Asked for every access, every one gets its check: 65 + 1.
    // ALL-COUNT-66: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
    // ALL-NOT: %snag.epoch{{[0-9]*}} = load
    for (long j = 0; j < n; ++j) q[j] = j;
      p[i * 65 + 0] = 0;
      p[i * 65 + 1] = 1;
      p[i * 65 + 2] = 2;
      p[i * 65 + 3] = 3;
      p[i * 65 + 4] = 4;
      p[i * 65 + 5] = 5;
      p[i * 65 + 6] = 6;
      p[i * 65 + 7] = 7;
      p[i * 65 + 8] = 8;
      p[i * 65 + 9] = 9;
      p[i * 65 + 10] = 10;
      p[i * 65 + 11] = 11;
      p[i * 65 + 12] = 12;
      p[i * 65 + 13] = 13;
      p[i * 65 + 14] = 14;
      p[i * 65 + 15] = 15;
      p[i * 65 + 16] = 16;
      p[i * 65 + 17] = 17;
      p[i * 65 + 18] = 18;
      p[i * 65 + 19] = 19;
      p[i * 65 + 20] = 20;
      p[i * 65 + 21] = 21;
      p[i * 65 + 22] = 22;
      p[i * 65 + 23] = 23;
      p[i * 65 + 24] = 24;
      p[i * 65 + 25] = 25;
      p[i * 65 + 26] = 26;
      p[i * 65 + 27] = 27;
      p[i * 65 + 28] = 28;
      p[i * 65 + 29] = 29;
      p[i * 65 + 30] = 30;
      p[i * 65 + 31] = 31;
      p[i * 65 + 32] = 32;
      p[i * 65 + 33] = 33;
      p[i * 65 + 34] = 34;
      p[i * 65 + 35] = 35;
      p[i * 65 + 36] = 36;
      p[i * 65 + 37] = 37;
      p[i * 65 + 38] = 38;
      p[i * 65 + 39] = 39;
      p[i * 65 + 40] = 40;
      p[i * 65 + 41] = 41;
      p[i * 65 + 42] = 42;
      p[i * 65 + 43] = 43;
      p[i * 65 + 44] = 44;
      p[i * 65 + 45] = 45;
      p[i * 65 + 46] = 46;
      p[i * 65 + 47] = 47;
      p[i * 65 + 48] = 48;
      p[i * 65 + 49] = 49;
      p[i * 65 + 50] = 50;
      p[i * 65 + 51] = 51;
      p[i * 65 + 52] = 52;
      p[i * 65 + 53] = 53;
      p[i * 65 + 54] = 54;
      p[i * 65 + 55] = 55;
      p[i * 65 + 56] = 56;
      p[i * 65 + 57] = 57;
      p[i * 65 + 58] = 58;
      p[i * 65 + 59] = 59;
      p[i * 65 + 60] = 60;
      p[i * 65 + 61] = 61;
      p[i * 65 + 62] = 62;
      p[i * 65 + 63] = 63;
      p[i * 65 + 64] = 64;
  }
}

// CHECK-LABEL: define {{.*}}void @small_loop(
// ALL-LABEL: define {{.*}}void @small_loop(
void small_loop(long *p, long n) {
  for (long i = 0; i < n; ++i) {
    // 64 accesses: a tight enough loop, all checked.
    // CHECK-COUNT-64: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
    // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
      p[i * 64 + 0] = 0;
      p[i * 64 + 1] = 1;
      p[i * 64 + 2] = 2;
      p[i * 64 + 3] = 3;
      p[i * 64 + 4] = 4;
      p[i * 64 + 5] = 5;
      p[i * 64 + 6] = 6;
      p[i * 64 + 7] = 7;
      p[i * 64 + 8] = 8;
      p[i * 64 + 9] = 9;
      p[i * 64 + 10] = 10;
      p[i * 64 + 11] = 11;
      p[i * 64 + 12] = 12;
      p[i * 64 + 13] = 13;
      p[i * 64 + 14] = 14;
      p[i * 64 + 15] = 15;
      p[i * 64 + 16] = 16;
      p[i * 64 + 17] = 17;
      p[i * 64 + 18] = 18;
      p[i * 64 + 19] = 19;
      p[i * 64 + 20] = 20;
      p[i * 64 + 21] = 21;
      p[i * 64 + 22] = 22;
      p[i * 64 + 23] = 23;
      p[i * 64 + 24] = 24;
      p[i * 64 + 25] = 25;
      p[i * 64 + 26] = 26;
      p[i * 64 + 27] = 27;
      p[i * 64 + 28] = 28;
      p[i * 64 + 29] = 29;
      p[i * 64 + 30] = 30;
      p[i * 64 + 31] = 31;
      p[i * 64 + 32] = 32;
      p[i * 64 + 33] = 33;
      p[i * 64 + 34] = 34;
      p[i * 64 + 35] = 35;
      p[i * 64 + 36] = 36;
      p[i * 64 + 37] = 37;
      p[i * 64 + 38] = 38;
      p[i * 64 + 39] = 39;
      p[i * 64 + 40] = 40;
      p[i * 64 + 41] = 41;
      p[i * 64 + 42] = 42;
      p[i * 64 + 43] = 43;
      p[i * 64 + 44] = 44;
      p[i * 64 + 45] = 45;
      p[i * 64 + 46] = 46;
      p[i * 64 + 47] = 47;
      p[i * 64 + 48] = 48;
      p[i * 64 + 49] = 49;
      p[i * 64 + 50] = 50;
      p[i * 64 + 51] = 51;
      p[i * 64 + 52] = 52;
      p[i * 64 + 53] = 53;
      p[i * 64 + 54] = 54;
      p[i * 64 + 55] = 55;
      p[i * 64 + 56] = 56;
      p[i * 64 + 57] = 57;
      p[i * 64 + 58] = 58;
      p[i * 64 + 59] = 59;
      p[i * 64 + 60] = 60;
      p[i * 64 + 61] = 61;
      p[i * 64 + 62] = 62;
      p[i * 64 + 63] = 63;
  }
}
