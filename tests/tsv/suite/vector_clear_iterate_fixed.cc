// snag-tsv-suite
// expect: clean
// why: the thread that clear()s the std::vector first waits on a latch the range-for reader counts down when it is done
#include <latch>
#include <thread>
#include <vector>

std::vector<int> batch = {1, 2, 3, 4};
std::latch summed(1);
long total = 0;

__attribute__((noinline)) void summer() {
  long sum = 0;
  for (int x : batch)
    sum += x;
  total = sum;
  summed.count_down();
}

__attribute__((noinline)) void resetter() {
  summed.wait();
  batch.clear();
}

int main() {
  std::thread s(summer), r(resetter);
  s.join();
  r.join();
  return 0;
}
