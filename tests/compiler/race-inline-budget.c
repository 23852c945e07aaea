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
  for (long i = 0; i < n; ++i) {
    // The inner loop's access, the deepest, keeps its check although it
    // comes last: 127 checks for the first 127 stores of the outer loop.
    // CHECK-COUNT-127: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
    // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
    // CHECK: call void @__snag_write8(
    // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
    // CHECK: for.body{{[0-9]*}}:
    // CHECK: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
    // CHECK-NOT: %snag.epoch{{[0-9]*}} = load
    // CHECK: ret void
    // Asked for every access, the budget does not apply: all 132 (the
    // 130 stores, the load of rows[i] and the inner loop's store).
    // ALL-COUNT-132: %snag.epoch{{[0-9]*}} = load i64, {{.*}}@__snag_fast_path
    // ALL-NOT: %snag.epoch{{[0-9]*}} = load
    // ALL: ret void
    p[i * 130 + 0] = 0;
    p[i * 130 + 1] = 1;
    p[i * 130 + 2] = 2;
    p[i * 130 + 3] = 3;
    p[i * 130 + 4] = 4;
    p[i * 130 + 5] = 5;
    p[i * 130 + 6] = 6;
    p[i * 130 + 7] = 7;
    p[i * 130 + 8] = 8;
    p[i * 130 + 9] = 9;
    p[i * 130 + 10] = 10;
    p[i * 130 + 11] = 11;
    p[i * 130 + 12] = 12;
    p[i * 130 + 13] = 13;
    p[i * 130 + 14] = 14;
    p[i * 130 + 15] = 15;
    p[i * 130 + 16] = 16;
    p[i * 130 + 17] = 17;
    p[i * 130 + 18] = 18;
    p[i * 130 + 19] = 19;
    p[i * 130 + 20] = 20;
    p[i * 130 + 21] = 21;
    p[i * 130 + 22] = 22;
    p[i * 130 + 23] = 23;
    p[i * 130 + 24] = 24;
    p[i * 130 + 25] = 25;
    p[i * 130 + 26] = 26;
    p[i * 130 + 27] = 27;
    p[i * 130 + 28] = 28;
    p[i * 130 + 29] = 29;
    p[i * 130 + 30] = 30;
    p[i * 130 + 31] = 31;
    p[i * 130 + 32] = 32;
    p[i * 130 + 33] = 33;
    p[i * 130 + 34] = 34;
    p[i * 130 + 35] = 35;
    p[i * 130 + 36] = 36;
    p[i * 130 + 37] = 37;
    p[i * 130 + 38] = 38;
    p[i * 130 + 39] = 39;
    p[i * 130 + 40] = 40;
    p[i * 130 + 41] = 41;
    p[i * 130 + 42] = 42;
    p[i * 130 + 43] = 43;
    p[i * 130 + 44] = 44;
    p[i * 130 + 45] = 45;
    p[i * 130 + 46] = 46;
    p[i * 130 + 47] = 47;
    p[i * 130 + 48] = 48;
    p[i * 130 + 49] = 49;
    p[i * 130 + 50] = 50;
    p[i * 130 + 51] = 51;
    p[i * 130 + 52] = 52;
    p[i * 130 + 53] = 53;
    p[i * 130 + 54] = 54;
    p[i * 130 + 55] = 55;
    p[i * 130 + 56] = 56;
    p[i * 130 + 57] = 57;
    p[i * 130 + 58] = 58;
    p[i * 130 + 59] = 59;
    p[i * 130 + 60] = 60;
    p[i * 130 + 61] = 61;
    p[i * 130 + 62] = 62;
    p[i * 130 + 63] = 63;
    p[i * 130 + 64] = 64;
    p[i * 130 + 65] = 65;
    p[i * 130 + 66] = 66;
    p[i * 130 + 67] = 67;
    p[i * 130 + 68] = 68;
    p[i * 130 + 69] = 69;
    p[i * 130 + 70] = 70;
    p[i * 130 + 71] = 71;
    p[i * 130 + 72] = 72;
    p[i * 130 + 73] = 73;
    p[i * 130 + 74] = 74;
    p[i * 130 + 75] = 75;
    p[i * 130 + 76] = 76;
    p[i * 130 + 77] = 77;
    p[i * 130 + 78] = 78;
    p[i * 130 + 79] = 79;
    p[i * 130 + 80] = 80;
    p[i * 130 + 81] = 81;
    p[i * 130 + 82] = 82;
    p[i * 130 + 83] = 83;
    p[i * 130 + 84] = 84;
    p[i * 130 + 85] = 85;
    p[i * 130 + 86] = 86;
    p[i * 130 + 87] = 87;
    p[i * 130 + 88] = 88;
    p[i * 130 + 89] = 89;
    p[i * 130 + 90] = 90;
    p[i * 130 + 91] = 91;
    p[i * 130 + 92] = 92;
    p[i * 130 + 93] = 93;
    p[i * 130 + 94] = 94;
    p[i * 130 + 95] = 95;
    p[i * 130 + 96] = 96;
    p[i * 130 + 97] = 97;
    p[i * 130 + 98] = 98;
    p[i * 130 + 99] = 99;
    p[i * 130 + 100] = 100;
    p[i * 130 + 101] = 101;
    p[i * 130 + 102] = 102;
    p[i * 130 + 103] = 103;
    p[i * 130 + 104] = 104;
    p[i * 130 + 105] = 105;
    p[i * 130 + 106] = 106;
    p[i * 130 + 107] = 107;
    p[i * 130 + 108] = 108;
    p[i * 130 + 109] = 109;
    p[i * 130 + 110] = 110;
    p[i * 130 + 111] = 111;
    p[i * 130 + 112] = 112;
    p[i * 130 + 113] = 113;
    p[i * 130 + 114] = 114;
    p[i * 130 + 115] = 115;
    p[i * 130 + 116] = 116;
    p[i * 130 + 117] = 117;
    p[i * 130 + 118] = 118;
    p[i * 130 + 119] = 119;
    p[i * 130 + 120] = 120;
    p[i * 130 + 121] = 121;
    p[i * 130 + 122] = 122;
    p[i * 130 + 123] = 123;
    p[i * 130 + 124] = 124;
    p[i * 130 + 125] = 125;
    p[i * 130 + 126] = 126;
    p[i * 130 + 127] = 127;
    p[i * 130 + 128] = 128;
    p[i * 130 + 129] = 129;
    for (long j = 0; j < n; ++j) rows[i][j] = j;
  }
}
