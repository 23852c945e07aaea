// snag-race-suite
// expect: clean
// why: appending to and reading the length of the shared std::string are both done under the same mutex
#include <mutex>
#include <string>
#include <thread>

std::string log_text;
std::mutex m;
std::size_t seen_len = 0;

__attribute__((noinline)) void writer() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m);
    log_text += "entry;";
  }
}

__attribute__((noinline)) void reader() {
  std::lock_guard<std::mutex> g(m);
  seen_len = log_text.size();
}

int main() {
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  return log_text.size() == 600 ? 0 : 1;
}
