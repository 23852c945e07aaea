// snag-race-suite
// expect: racy
// why: the reader acquires the flag `a` that the relay released BEFORE the relay acquired `g` from the writer; the relay's later release of `b` (read relaxed here) carries the writer's data, the release of `a` does not (race_bench section 55, rule 4: a flag's word publishes the relay's clock at that release, not its clock now)
#include <atomic>
#include <thread>

int data;
int seen;
// Each in a line of its own: two 4-byte atomics in one 8-byte span would
// both take the variable path, and the words the test is about would not exist.
alignas(64) std::atomic<int> a{0};
alignas(64) std::atomic<int> b{0};
alignas(64) std::atomic<int> g{0};

__attribute__((noinline)) void writer() {
  data = 42;  // RACE:first
  g.store(1, std::memory_order_release);
}

__attribute__((noinline)) void relay() {
  a.store(1, std::memory_order_release);
  while (!g.load(std::memory_order_acquire)) std::this_thread::yield();
  b.store(1, std::memory_order_release);
}

__attribute__((noinline)) void reader() {
  // Relaxed: waits until the relay has acquired g, without taking its edge.
  while (!b.load(std::memory_order_relaxed)) std::this_thread::yield();
  while (!a.load(std::memory_order_acquire)) std::this_thread::yield();
  seen = data;  // RACE:second
}

int main() {
  std::thread r(reader), l(relay), w(writer);
  w.join();
  l.join();
  r.join();
  return seen == 42 ? 0 : 1;
}
