// snag-race-suite
// expect: racy
// why: main deletes a heap node while the worker that writes it has not been joined (use-after-free style race with free)
#include <thread>

struct Node {
  long header[4];  // keeps the racing field away from the allocator's free-list words
  long value;
};

Node* node;

__attribute__((noinline)) void worker(long v) {
  node->value = v;  // RACE:first
}

int main(int argc, char**) {
  node = new Node();
  std::thread t(worker, argc);
  delete node;  // RACE:second
  t.join();
  return 0;
}
