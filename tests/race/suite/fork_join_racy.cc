// snag-race-suite
// expect: racy
// why: main reads the worker's result before joining the worker
#include <thread>

long result = 0;

__attribute__((noinline)) void compute(long n) {
  long s = 0;
  for (long i = 1; i <= n; ++i) s += i;
  result = s;  // RACE:first
}

int main() {
  std::thread t(compute, 100);
  long early = result;  // RACE:second
  t.join();
  return early >= 0 ? 0 : 1;
}
