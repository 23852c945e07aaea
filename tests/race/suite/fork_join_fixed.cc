// snag-race-suite
// expect: clean
// why: main reads the worker's result only after joining the worker
#include <thread>

long result = 0;

__attribute__((noinline)) void compute(long n) {
  long s = 0;
  for (long i = 1; i <= n; ++i) s += i;
  result = s;
}

int main() {
  std::thread t(compute, 100);
  t.join();
  long late = result;
  return late == 5050 ? 0 : 1;
}
