// snag-race-suite
// expect: racy
// why: one thread initializes the config through std::call_once, another reads the config directly without calling call_once
#include <mutex>
#include <thread>

std::once_flag once;
int config = 0;
int seed;
int seen[2];

__attribute__((noinline)) void init_config() {
  config = seed * 10;  // RACE:first
}

__attribute__((noinline)) void user() {
  std::call_once(once, init_config);
  seen[0] = config;
}

__attribute__((noinline)) void sloppy_user() {
  seen[1] = config;  // RACE:second
}

int main(int argc, char**) {
  seed = argc;
  std::thread a(user), b(sloppy_user);
  a.join();
  b.join();
  return seen[0] == argc * 10 ? 0 : 1;
}
