// snag-race-suite
// expect: clean
// why: main reads the variable written by the std::async task only after future::get(), which synchronizes with the task
#include <future>

int side = 0;

__attribute__((noinline)) int job(int x) {
  side = x;
  return x * 2;
}

int main(int argc, char**) {
  std::future<int> f = std::async(std::launch::async, job, argc + 1);
  int r = f.get();
  int s = side;
  return r == (argc + 1) * 2 && s == argc + 1 ? 0 : 1;
}
