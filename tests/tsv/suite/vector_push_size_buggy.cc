// snag-tsv-suite
// expect: violation
// object: std::vector<int>
// why: main reads the std::vector's size() while the worker it just started push_backs into it; main joins only afterwards
#include <thread>
#include <vector>

std::vector<int> samples;
std::size_t seen = 0;

__attribute__((noinline)) void sample() {
  samples.push_back(42);  // TSV:first
}

int main() {
  samples.reserve(8);
  std::thread worker(sample);
  seen = samples.size();  // TSV:second
  worker.join();
  return 0;
}
