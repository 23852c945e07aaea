// snag-race-suite
// expect: racy
// why: main reads a variable written by the std::async task before calling future::get()
#include <future>

int side = 0;

__attribute__((noinline)) int job(int x) {
  side = x;  // RACE:first
  return x * 2;
}

int main(int argc, char**) {
  std::future<int> f = std::async(std::launch::async, job, argc + 1);
  int s = side;  // RACE:second
  int r = f.get();
  return r == (argc + 1) * 2 && s >= 0 ? 0 : 1;
}
