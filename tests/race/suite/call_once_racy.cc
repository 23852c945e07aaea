// snag-race-suite
// expect: racy
// why: hand-rolled one-time initialization: the plain 'initialized' flag is read and written by two threads without synchronization
#include <atomic>
#include <thread>

bool initialized = false;
std::atomic<int> init_calls{0};

__attribute__((noinline)) void ensure_init() {
  if (!initialized) { initialized = true; init_calls.fetch_add(1, std::memory_order_relaxed); }  // RACE:first RACE:second
}

int main() {
  std::thread a(ensure_init), b(ensure_init);
  a.join();
  b.join();
  return init_calls.load() >= 1 ? 0 : 1;
}
