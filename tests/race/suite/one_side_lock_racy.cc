// snag-race-suite
// expect: racy
// why: the writer holds the mutex but the reader reads the shared value without it
#include <mutex>
#include <thread>

long value = 0;
long observed = 0;
std::mutex m;

__attribute__((noinline)) void writer() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> g(m);
    value = i;  // RACE:first
  }
}

__attribute__((noinline)) void reader() {
  observed = value;  // RACE:second
}

int main() {
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  return 0;
}
