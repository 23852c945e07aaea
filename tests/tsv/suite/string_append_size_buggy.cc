// snag-tsv-suite
// expect: violation
// object: std::string
// why: one thread append()s to a std::string while another reads its size(), with no lock (capacity is reserved, so it never reallocates)
#include <latch>
#include <string>
#include <thread>

std::string log_line = "start";
std::latch start(2);
std::size_t log_length = 0;

__attribute__((noinline)) void writer() {
  start.arrive_and_wait();
  log_line.append(" ok");  // TSV:first
}

__attribute__((noinline)) void measurer() {
  start.arrive_and_wait();
  log_length = log_line.size();  // TSV:second
}

int main() {
  log_line.reserve(64);
  std::thread w(writer), m(measurer);
  w.join();
  m.join();
  return 0;
}
