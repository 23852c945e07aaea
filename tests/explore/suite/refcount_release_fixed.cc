// explore suite: refcount_release, fixed twin.
// release() decrements the reference count with one fetch_sub, so exactly one owner sees
// it reach zero.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

struct Buffer {
  std::atomic<int> refs{2};
};

std::atomic<int> frees{0};

void release(Buffer* b) {
  int left = b->refs.fetch_sub(1) - 1;
  if (left == 0)
    frees.fetch_add(1);
}

int main() {
  Buffer* buffer = new Buffer;
  std::thread a(release, buffer);
  std::thread b(release, buffer);
  a.join();
  b.join();
  assert(frees.load() == 1);
  delete buffer;
  return 0;
}
