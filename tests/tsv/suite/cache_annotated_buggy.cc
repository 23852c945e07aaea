// snag-tsv-suite
// expect: violation
// object: Cache
// why: Cache marks put() as a write and get() as a read with snag's annotations; one thread calls put() while another calls get(), with no lock
#include <latch>
#include <thread>
#if __has_include(<snag/annotations.h>)
#include <snag/annotations.h>
#endif
#ifndef SNAG_THREAD_UNSAFE_READ
#define SNAG_THREAD_UNSAFE_READ()
#define SNAG_THREAD_UNSAFE_WRITE()
#endif

// A small direct-mapped cache; not thread-safe.
class Cache {
 public:
  void put(int key, int value) {
    SNAG_THREAD_UNSAFE_WRITE();
    Slot& s = slots_[key % 8];
    s.key = key;
    s.value = value;
  }
  int get(int key) const {
    SNAG_THREAD_UNSAFE_READ();
    const Slot& s = slots_[key % 8];
    return s.key == key ? s.value : -1;
  }

 private:
  struct Slot {
    int key = -1;
    int value = 0;
  };
  Slot slots_[8];
};

Cache cache;
std::latch start(2);
int looked_up = 0;

__attribute__((noinline)) void writer() {
  start.arrive_and_wait();
  cache.put(1, 10);  // TSV:first
}

__attribute__((noinline)) void reader() {
  start.arrive_and_wait();
  looked_up = cache.get(2);  // TSV:second
}

int main() {
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  return 0;
}
