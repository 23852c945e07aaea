// snag-check-suite
// expect: race
// why: paper 001 "Quicksort Broken" (Fig. 2): the parallel halves overlap at the pivot slot, so one task writes a[p] while the other reads it
#include <future>

constexpr int kN = 12;
int data[kN] = {7, 3, 11, 5, 9, 1, 12, 4, 8, 2, 10, 6};

// Below the depth cut-off the range is sorted sequentially. (The paper's
// version recursed forever on the overlapping range; the cut-off keeps the
// program finite without changing which elements the two tasks share.)
void insertion_sort(int* a, int lo, int hi) {
  for (int i = lo + 1; i <= hi; ++i) {
    int key = a[i];
    int j = i - 1;
    while (j >= lo && a[j] > key) {  // RACE:second
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = key;  // RACE:first
  }
}

int partition(int* a, int lo, int hi) {
  int pivot = a[hi];
  int i = lo;
  for (int j = lo; j < hi; ++j) {
    if (a[j] < pivot) {
      int t = a[i]; a[i] = a[j]; a[j] = t;
      ++i;
    }
  }
  int t = a[i]; a[i] = a[hi]; a[hi] = t;
  return i;
}

void quicksort(int* a, int lo, int hi, int depth) {
  if (lo >= hi) return;
  if (depth == 0) {
    insertion_sort(a, lo, hi);
    return;
  }
  int p = partition(a, lo, hi);
  auto left = std::async(std::launch::async, quicksort, a, lo, p, depth - 1);
  quicksort(a, p, hi, depth - 1);
  left.get();
}

int main() {
  quicksort(data, 0, kN - 1, 1);
  for (int i = 1; i < kN; ++i)
    if (data[i - 1] > data[i]) return 1;
  return 0;
}
