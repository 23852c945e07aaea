// snag-race-suite
// expect: clean
// why: a function-local static is initialized exactly once with thread-safe (guarded) initialization since C++11
#include <thread>

int seed;
int got[2];

__attribute__((noinline)) int expensive() {
  return seed * 3 + 1;
}

__attribute__((noinline)) int get_cached() {
  static int cache = expensive();
  return cache;
}

__attribute__((noinline)) void worker(int id) {
  got[id] = get_cached();
}

int main(int argc, char**) {
  seed = argc;
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  return got[0] == got[1] && got[0] == argc * 3 + 1 ? 0 : 1;
}
