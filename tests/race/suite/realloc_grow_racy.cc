// snag-race-suite
// expect: racy
// why: a buffer grown by realloc (in place when the heap allows) is written at its new end by a worker and read by main, unordered
#include <stdlib.h>

#include <thread>

long* buffer;
long seen;

__attribute__((noinline)) void worker(long v) {
  buffer[4] = v;  // RACE:first
}

int main(int argc, char**) {
  buffer = static_cast<long*>(malloc(3 * sizeof(long)));
  buffer[2] = argc;
  buffer = static_cast<long*>(realloc(buffer, 5 * sizeof(long)));
  buffer[4] = 0;
  std::thread t(worker, argc);
  seen = buffer[4];  // RACE:second
  t.join();
  free(buffer);
  return seen >= 0 ? 0 : 1;
}
