// snag-tsv-suite
// expect: clean
// why: main reads the std::vector element with operator[] only after future::get() of the task that push_backs into it
#include <future>
#include <vector>

std::vector<int> readings;
int first_reading = 0;

__attribute__((noinline)) void measure() {
  readings.push_back(20);
}

int main() {
  readings.reserve(8);
  readings.push_back(10);
  std::future<void> done = std::async(std::launch::async, measure);
  done.get();
  first_reading = readings[0];
  return 0;
}
