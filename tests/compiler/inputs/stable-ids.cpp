// Input of stable-ids.sh, compiled twice: -DVARIANT=1 and -DVARIANT=2.
// The variants differ only in unrelated code around work(), which stays on
// the same lines, so its site ids must not change.

#if VARIANT == 2
// Functions before work() in this variant only.
int unrelated_before(int x) { return x * 3; }
static int scratch[8];
int touch_scratch(int i) { return scratch[i & 7]++; }
#endif

int shared;
void callee(int);

// Inlined into work(): its sites have parents.
static inline void helper(int n) {
  shared -= n;
  callee(-n);
}

int work(int n) {
  for (int i = 0; i < n; ++i) {
    shared += i;
    callee(i);
  }
  helper(n);
  return shared;
}

#if VARIANT == 1
// A function after work() in this variant only.
int unrelated_after(int x) {
  shared = x;
  return x + 1;
}
#endif
