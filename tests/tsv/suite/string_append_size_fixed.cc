// snag-tsv-suite
// expect: clean
// why: the std::string's append() and size() are both made under the same mutex
#include <latch>
#include <mutex>
#include <string>
#include <thread>

std::string log_line = "start";
std::mutex log_mutex;
std::latch start(2);
std::size_t log_length = 0;

__attribute__((noinline)) void writer() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(log_mutex);
  log_line.append(" ok");
}

__attribute__((noinline)) void measurer() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(log_mutex);
  log_length = log_line.size();
}

int main() {
  log_line.reserve(64);
  std::thread w(writer), m(measurer);
  w.join();
  m.join();
  return 0;
}
