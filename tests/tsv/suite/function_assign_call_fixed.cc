// snag-tsv-suite
// expect: clean
// why: the std::function's assignment and its call are both made under the same mutex
#include <functional>
#include <latch>
#include <mutex>
#include <thread>

std::function<int(int)> scale = [](int x) { return x + 1; };
std::mutex scale_mutex;
std::latch start(2);
int scaled = 0;

__attribute__((noinline)) void reconfigure() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(scale_mutex);
  scale = [](int x) { return x * 2; };
}

__attribute__((noinline)) void apply() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(scale_mutex);
  scaled = scale(21);
}

int main() {
  std::thread r(reconfigure), a(apply);
  r.join();
  a.join();
  return 0;
}
