// snag-race-suite
// expect: racy
// why: one thread updates the int through std::atomic_ref, the other with a plain non-atomic increment; mixing atomic and non-atomic access is a race
#include <atomic>
#include <thread>

alignas(std::atomic_ref<int>::required_alignment) int hits = 0;

__attribute__((noinline)) void atomic_side() {
  for (int i = 0; i < 100; ++i)
    std::atomic_ref<int>(hits).fetch_add(1);  // RACE:first
}

__attribute__((noinline)) void plain_side() {
  hits += 100;  // RACE:second
}

int main() {
  std::thread a(atomic_side), b(plain_side);
  a.join();
  b.join();
  return 0;
}
