// A function gets at most 128 inline race checks (compiler/plugin/
// RaceFastPath.h, kMaxInlineRaceChecks), those of its most deeply nested
// loops first: the other accesses in loops call their hook directly, as
// accesses outside loops do. Hundreds of checks in one function (a test
// body with many inlined lambdas in loops) made the backend take several
// times a plain build's time.
// RUN: SNAG_INSTRUMENT=memory
// RUN: SNAG_INSTRUMENT=memory SNAG_RACE_INLINE=blocks,owner check=ALL

// CHECK-LABEL: define {{.*}}void @crowded(
// ALL-LABEL: define {{.*}}void @crowded(
void crowded(long *p, long **rows, long n) {
  // Three loops of 44 stores (each under the loop-size limit,
  // race-inline-loop-size.c), then a nested loop whose inner store is the
  // deepest access and keeps its check although it comes last: 127 checks
  // for the first 127 stores.
  // CHECK-COUNT-127: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
  // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
  // CHECK: call void @__snag_write8(
  // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
  // CHECK: for.body{{[0-9]*}}:
  // CHECK: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
  // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
  // CHECK: ret void
  // Asked for every access, the budget does not apply: all 134 (the
  // 132 stores, the load of rows[i] and the inner loop's store).
  // ALL-COUNT-134: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
  // ALL-NOT: %snag.epoch{{[0-9]*}} = load
  // ALL: ret void
  for (long i = 0; i < n; ++i) {
    p[i * 132 + 0] = 0;
    p[i * 132 + 1] = 1;
    p[i * 132 + 2] = 2;
    p[i * 132 + 3] = 3;
    p[i * 132 + 4] = 4;
    p[i * 132 + 5] = 5;
    p[i * 132 + 6] = 6;
    p[i * 132 + 7] = 7;
    p[i * 132 + 8] = 8;
    p[i * 132 + 9] = 9;
    p[i * 132 + 10] = 10;
    p[i * 132 + 11] = 11;
    p[i * 132 + 12] = 12;
    p[i * 132 + 13] = 13;
    p[i * 132 + 14] = 14;
    p[i * 132 + 15] = 15;
    p[i * 132 + 16] = 16;
    p[i * 132 + 17] = 17;
    p[i * 132 + 18] = 18;
    p[i * 132 + 19] = 19;
    p[i * 132 + 20] = 20;
    p[i * 132 + 21] = 21;
    p[i * 132 + 22] = 22;
    p[i * 132 + 23] = 23;
    p[i * 132 + 24] = 24;
    p[i * 132 + 25] = 25;
    p[i * 132 + 26] = 26;
    p[i * 132 + 27] = 27;
    p[i * 132 + 28] = 28;
    p[i * 132 + 29] = 29;
    p[i * 132 + 30] = 30;
    p[i * 132 + 31] = 31;
    p[i * 132 + 32] = 32;
    p[i * 132 + 33] = 33;
    p[i * 132 + 34] = 34;
    p[i * 132 + 35] = 35;
    p[i * 132 + 36] = 36;
    p[i * 132 + 37] = 37;
    p[i * 132 + 38] = 38;
    p[i * 132 + 39] = 39;
    p[i * 132 + 40] = 40;
    p[i * 132 + 41] = 41;
    p[i * 132 + 42] = 42;
    p[i * 132 + 43] = 43;
  }
  for (long i = 0; i < n; ++i) {
    p[i * 132 + 44] = 44;
    p[i * 132 + 45] = 45;
    p[i * 132 + 46] = 46;
    p[i * 132 + 47] = 47;
    p[i * 132 + 48] = 48;
    p[i * 132 + 49] = 49;
    p[i * 132 + 50] = 50;
    p[i * 132 + 51] = 51;
    p[i * 132 + 52] = 52;
    p[i * 132 + 53] = 53;
    p[i * 132 + 54] = 54;
    p[i * 132 + 55] = 55;
    p[i * 132 + 56] = 56;
    p[i * 132 + 57] = 57;
    p[i * 132 + 58] = 58;
    p[i * 132 + 59] = 59;
    p[i * 132 + 60] = 60;
    p[i * 132 + 61] = 61;
    p[i * 132 + 62] = 62;
    p[i * 132 + 63] = 63;
    p[i * 132 + 64] = 64;
    p[i * 132 + 65] = 65;
    p[i * 132 + 66] = 66;
    p[i * 132 + 67] = 67;
    p[i * 132 + 68] = 68;
    p[i * 132 + 69] = 69;
    p[i * 132 + 70] = 70;
    p[i * 132 + 71] = 71;
    p[i * 132 + 72] = 72;
    p[i * 132 + 73] = 73;
    p[i * 132 + 74] = 74;
    p[i * 132 + 75] = 75;
    p[i * 132 + 76] = 76;
    p[i * 132 + 77] = 77;
    p[i * 132 + 78] = 78;
    p[i * 132 + 79] = 79;
    p[i * 132 + 80] = 80;
    p[i * 132 + 81] = 81;
    p[i * 132 + 82] = 82;
    p[i * 132 + 83] = 83;
    p[i * 132 + 84] = 84;
    p[i * 132 + 85] = 85;
    p[i * 132 + 86] = 86;
    p[i * 132 + 87] = 87;
  }
  for (long i = 0; i < n; ++i) {
    p[i * 132 + 88] = 88;
    p[i * 132 + 89] = 89;
    p[i * 132 + 90] = 90;
    p[i * 132 + 91] = 91;
    p[i * 132 + 92] = 92;
    p[i * 132 + 93] = 93;
    p[i * 132 + 94] = 94;
    p[i * 132 + 95] = 95;
    p[i * 132 + 96] = 96;
    p[i * 132 + 97] = 97;
    p[i * 132 + 98] = 98;
    p[i * 132 + 99] = 99;
    p[i * 132 + 100] = 100;
    p[i * 132 + 101] = 101;
    p[i * 132 + 102] = 102;
    p[i * 132 + 103] = 103;
    p[i * 132 + 104] = 104;
    p[i * 132 + 105] = 105;
    p[i * 132 + 106] = 106;
    p[i * 132 + 107] = 107;
    p[i * 132 + 108] = 108;
    p[i * 132 + 109] = 109;
    p[i * 132 + 110] = 110;
    p[i * 132 + 111] = 111;
    p[i * 132 + 112] = 112;
    p[i * 132 + 113] = 113;
    p[i * 132 + 114] = 114;
    p[i * 132 + 115] = 115;
    p[i * 132 + 116] = 116;
    p[i * 132 + 117] = 117;
    p[i * 132 + 118] = 118;
    p[i * 132 + 119] = 119;
    p[i * 132 + 120] = 120;
    p[i * 132 + 121] = 121;
    p[i * 132 + 122] = 122;
    p[i * 132 + 123] = 123;
    p[i * 132 + 124] = 124;
    p[i * 132 + 125] = 125;
    p[i * 132 + 126] = 126;
    p[i * 132 + 127] = 127;
    p[i * 132 + 128] = 128;
    p[i * 132 + 129] = 129;
    p[i * 132 + 130] = 130;
    p[i * 132 + 131] = 131;
  }
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) rows[i][j] = j;
}
