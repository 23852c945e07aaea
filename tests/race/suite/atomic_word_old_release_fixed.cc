// snag-race-suite
// expect: clean
// why: as atomic_word_old_release_racy, but the reader acquires `b`, released by the relay after it acquired `g` from the writer: the data is ordered before the read
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
  data = 42;
  g.store(1, std::memory_order_release);
}

__attribute__((noinline)) void relay() {
  a.store(1, std::memory_order_release);
  while (!g.load(std::memory_order_acquire)) std::this_thread::yield();
  b.store(1, std::memory_order_release);
}

__attribute__((noinline)) void reader() {
  // Acquires b: the relay released it after it acquired g.
  while (!b.load(std::memory_order_acquire)) std::this_thread::yield();
  while (!a.load(std::memory_order_acquire)) std::this_thread::yield();
  seen = data;
}

int main() {
  std::thread r(reader), l(relay), w(writer);
  w.join();
  l.join();
  r.join();
  return seen == 42 ? 0 : 1;
}
