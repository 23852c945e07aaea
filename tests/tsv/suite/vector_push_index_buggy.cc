// snag-tsv-suite
// expect: violation
// object: std::vector<int>
// why: a std::async task push_backs into a std::vector while main reads an element with operator[] before waiting on the task's future
#include <future>
#include <vector>

std::vector<int> readings;
int first_reading = 0;

__attribute__((noinline)) void measure() {
  readings.push_back(20);  // TSV:first
}

int main() {
  readings.reserve(8);
  readings.push_back(10);
  std::future<void> done = std::async(std::launch::async, measure);
  first_reading = readings[0];  // TSV:second
  done.get();
  return 0;
}
