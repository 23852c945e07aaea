// snag-tsv-suite
// expect: violation
// object: std::vector<int>
// why: one thread clear()s a std::vector while another iterates over it with a range-for; the clearer does not wait for the reader's latch
#include <latch>
#include <thread>
#include <vector>

std::vector<int> batch = {1, 2, 3, 4};
std::latch summed(1);
long total = 0;

__attribute__((noinline)) void summer() {
  long sum = 0;
  for (int x : batch)  // TSV:first
    sum += x;
  total = sum;
  summed.count_down();
}

__attribute__((noinline)) void resetter() {
  batch.clear();  // TSV:second
}

int main() {
  std::thread s(summer), r(resetter);
  s.join();
  r.join();
  return 0;
}
