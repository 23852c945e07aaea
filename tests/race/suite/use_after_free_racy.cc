// snag-race-suite
// expect: racy
// why: main deletes a heap node while the worker that writes it has not been joined (use-after-free style race with free)
// The worker waits on a relaxed flag (no happens-before) so that it always
// writes after the delete: the order whose report lacks the free's side.
#include <atomic>
#include <thread>

struct Node {
  long header[4];  // keeps the racing field away from the allocator's free-list words
  long value;
};

Node* node;
std::atomic<bool> deleted{false};

__attribute__((noinline)) void worker(long v) {
  while (!deleted.load(std::memory_order_relaxed)) {
  }
  node->value = v;  // RACE:first
}

int main(int argc, char**) {
  node = new Node();
  std::thread t(worker, argc);
  delete node;  // RACE:second
  deleted.store(true, std::memory_order_relaxed);
  t.join();
  return 0;
}
