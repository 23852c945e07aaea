// snag-race-suite
// expect: clean
// why: both threads increment the global int while holding the same std::mutex
#include <mutex>
#include <thread>

int counter = 0;
std::mutex m;

__attribute__((noinline)) void work() {
  for (int i = 0; i < 1000; ++i) {
    std::lock_guard<std::mutex> g(m);
    counter++;
  }
}

int main() {
  std::thread a(work), b(work);
  a.join();
  b.join();
  return counter == 2000 ? 0 : 1;
}
