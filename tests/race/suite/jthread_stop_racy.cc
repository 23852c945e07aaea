// snag-race-suite
// expect: racy
// why: the worker is stopped through a plain bool flag written by main and polled by the worker, instead of its std::stop_token
#include <thread>

bool stop_flag = false;
long iterations = -1;

__attribute__((noinline)) void spin() {
  long n = 0;
  while (!stop_flag) {  // RACE:second
    ++n;
    std::this_thread::yield();
  }
  iterations = n;
}

int main() {
  {
    std::jthread t(spin);
    stop_flag = true;  // RACE:first
  }  // jthread joins here
  return iterations >= 0 ? 0 : 1;
}
