// snag-race-suite
// expect: clean
// why: both threads update the plain int only through std::atomic_ref, so all concurrent accesses are atomic
#include <atomic>
#include <thread>

alignas(std::atomic_ref<int>::required_alignment) int hits = 0;

__attribute__((noinline)) void atomic_side() {
  for (int i = 0; i < 100; ++i)
    std::atomic_ref<int>(hits).fetch_add(1);
}

__attribute__((noinline)) void plain_side() {
  std::atomic_ref<int>(hits).fetch_add(100);
}

int main() {
  std::thread a(atomic_side), b(plain_side);
  a.join();
  b.join();
  return hits == 200 ? 0 : 1;
}
