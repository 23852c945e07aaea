// snag-tsv-suite
// expect: clean
// why: the two std::async tasks return their results through their futures and only main push_backs them into the std::vector, after get()
#include <future>
#include <vector>

std::vector<long> partial_sums;

__attribute__((noinline)) long sum_range(long from, long to) {
  long sum = 0;
  for (long i = from; i < to; ++i)
    sum += i;
  return sum;
}

int main() {
  partial_sums.reserve(8);
  std::future<long> low = std::async(std::launch::async, sum_range, 0, 500);
  std::future<long> high = std::async(std::launch::async, sum_range, 500, 1000);
  partial_sums.push_back(low.get());
  partial_sums.push_back(high.get());
  return 0;
}
