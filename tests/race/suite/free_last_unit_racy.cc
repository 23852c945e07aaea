// snag-race-suite
// expect: racy
// why: main deletes a 48-byte node while the worker, not joined, writes its last field (the block's last 8 bytes, half of its last 16-byte unit)
// The worker waits on a relaxed flag (no happens-before) so that it always
// writes after the delete.
#include <atomic>
#include <thread>

struct Node {
  long header[5];  // keeps the racing field away from the allocator's free-list words
  long last;       // offset 40: the block's last granule
};

Node* node;
std::atomic<bool> deleted{false};

__attribute__((noinline)) void worker(long v) {
  while (!deleted.load(std::memory_order_relaxed)) {
  }
  node->last = v;  // RACE:first
}

int main(int argc, char**) {
  node = new Node();
  std::thread t(worker, argc);
  delete node;  // RACE:second
  deleted.store(true, std::memory_order_relaxed);
  t.join();
  return 0;
}
