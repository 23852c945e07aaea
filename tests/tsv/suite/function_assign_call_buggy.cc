// snag-tsv-suite
// expect: violation
// object: std::function<int (int)>
// why: one thread assigns a new callable to a std::function while another thread calls it, with no lock
#include <functional>
#include <latch>
#include <thread>

std::function<int(int)> scale = [](int x) { return x + 1; };
std::latch start(2);
int scaled = 0;

__attribute__((noinline)) void reconfigure() {
  start.arrive_and_wait();
  scale = [](int x) { return x * 2; };  // TSV:first
}

__attribute__((noinline)) void apply() {
  start.arrive_and_wait();
  scaled = scale(21);  // TSV:second
}

int main() {
  std::thread r(reconfigure), a(apply);
  r.join();
  a.join();
  return 0;
}
