// snag-race-suite
// expect: racy
// why: a global cache lazily initialized without synchronization ("if zero, compute and store") is read and written by two threads
#include <thread>

int seed;
int cache = 0;
int got[2];

__attribute__((noinline)) int expensive() {
  return seed * 3 + 1;
}

__attribute__((noinline)) int get_cached() {
  int v = cache; if (v == 0) cache = v = expensive();  // RACE:first RACE:second
  return v;
}

__attribute__((noinline)) void worker(int id) {
  got[id] = get_cached();
}

int main(int argc, char**) {
  seed = argc;
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  return got[0] == got[1] ? 0 : 1;
}
