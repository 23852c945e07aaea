// snag-tsv-suite
// expect: clean
// why: main reads the std::vector's size() only after joining the worker that push_backs into it
#include <thread>
#include <vector>

std::vector<int> samples;
std::size_t seen = 0;

__attribute__((noinline)) void sample() {
  samples.push_back(42);
}

int main() {
  samples.reserve(8);
  std::thread worker(sample);
  worker.join();
  seen = samples.size();
  return 0;
}
