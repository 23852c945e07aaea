// snag-race-suite
// expect: racy
// why: one thread fills an array of words and publishes it, then writes one word again; another thread takes the publication and sums the array in a tight loop after that write (a relaxed flag, which orders nothing, makes that the order every run). The loop's range question says no before the loop (every word was the writer's), and after the first word's hook snag asks it once more: that second answer must still be no, since every other word still needs its hand-off, so that the hooks keep running up to the rewritten word (a second answer taken as yes would skip the rest of the loop and miss the race)
#include <atomic>
#include <cstdint>
#include <thread>

constexpr int kWords = 64;
uint64_t words[kWords];
std::atomic<bool> published{false};
std::atomic<bool> rewritten{false};
uint64_t total;

__attribute__((noinline)) void writer() {
  for (int i = 0; i < kWords; ++i) words[i] = i;
  published.store(true, std::memory_order_release);
  words[40] = 99;  // RACE:first
  rewritten.store(true, std::memory_order_relaxed);
}

// A function of its own, so that the loop has a block to ask from (right
// after the waiting loops it would have none, and no question).
__attribute__((noinline)) uint64_t sum_words() {
  uint64_t sum = 0;
  for (int i = 0; i < kWords; ++i) sum += words[i];  // RACE:second
  return sum;
}

__attribute__((noinline)) void reader() {
  while (!published.load(std::memory_order_acquire)) {
  }
  while (!rewritten.load(std::memory_order_relaxed)) {
  }
  total = sum_words();
}

int main() {
  std::thread a(writer), b(reader);
  a.join();
  b.join();
  return 0;
}
