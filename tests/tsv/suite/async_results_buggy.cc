// snag-tsv-suite
// expect: violation
// object: std::vector<long>
// why: two std::async tasks each push_back their result into one shared std::vector with no lock
#include <future>
#include <vector>

std::vector<long> partial_sums;

__attribute__((noinline)) void sum_range(long from, long to) {
  long sum = 0;
  for (long i = from; i < to; ++i)
    sum += i;
  partial_sums.push_back(sum);  // TSV:first TSV:second
}

int main() {
  partial_sums.reserve(8);
  std::future<void> low = std::async(std::launch::async, sum_range, 0, 500);
  std::future<void> high = std::async(std::launch::async, sum_range, 500, 1000);
  low.get();
  high.get();
  return 0;
}
