// snag-race-suite
// expect: clean
// why: both the writer and the reader hold the same mutex around the shared value
#include <mutex>
#include <thread>

long value = 0;
long observed = 0;
std::mutex m;

__attribute__((noinline)) void writer() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m);
    value = i;
  }
}

__attribute__((noinline)) void reader() {
  std::lock_guard<std::mutex> g(m);
  observed = value;
}

int main() {
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  return 0;
}
