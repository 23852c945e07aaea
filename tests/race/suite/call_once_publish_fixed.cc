// snag-race-suite
// expect: clean
// why: both threads go through std::call_once before reading the config, so whichever initializes it happens-before both reads
#include <mutex>
#include <thread>

std::once_flag once;
int config = 0;
int seed;
int seen[2];

__attribute__((noinline)) void init_config() {
  config = seed * 10;
}

__attribute__((noinline)) void user() {
  std::call_once(once, init_config);
  seen[0] = config;
}

__attribute__((noinline)) void sloppy_user() {
  std::call_once(once, init_config);
  seen[1] = config;
}

int main(int argc, char**) {
  seed = argc;
  std::thread a(user), b(sloppy_user);
  a.join();
  b.join();
  return seen[0] == argc * 10 && seen[1] == argc * 10 ? 0 : 1;
}
