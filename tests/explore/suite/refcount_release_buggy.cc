// explore suite: refcount_release, buggy twin.
// release() decrements the reference count with a separate load and store, so when both
// owners load the count 2 before either stores (one preemption) both store 1 and nobody
// frees the buffer.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

struct Buffer {
  std::atomic<int> refs{2};
};

std::atomic<int> frees{0};

void release(Buffer* b) {
  int left = b->refs.load() - 1;
  b->refs.store(left);
  if (left == 0)
    frees.fetch_add(1);
}

int main() {
  Buffer* buffer = new Buffer;
  std::thread a(release, buffer);
  std::thread b(release, buffer);
  a.join();
  b.join();
  assert(frees.load() == 1);  // BUG: assertion-failure
  delete buffer;
  return 0;
}
