// snag-race-suite
// expect: clean
// why: one-time initialization through std::call_once, which synchronizes all callers with the single initializer
#include <atomic>
#include <mutex>
#include <thread>

std::once_flag once;
std::atomic<int> init_calls{0};

__attribute__((noinline)) void ensure_init() {
  std::call_once(once, [] { init_calls.fetch_add(1, std::memory_order_relaxed); });
}

int main() {
  std::thread a(ensure_init), b(ensure_init);
  a.join();
  b.join();
  return init_calls.load() == 1 ? 0 : 1;
}
