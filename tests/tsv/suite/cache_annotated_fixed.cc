// snag-tsv-suite
// expect: clean
// why: the annotated Cache's put() (write) runs under a unique_lock and get() (read) under a shared_lock of the same shared_mutex
#include <latch>
#include <mutex>
#include <shared_mutex>
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
std::shared_mutex cache_mutex;
std::latch start(2);
int looked_up = 0;

__attribute__((noinline)) void writer() {
  start.arrive_and_wait();
  std::unique_lock<std::shared_mutex> lock(cache_mutex);
  cache.put(1, 10);
}

__attribute__((noinline)) void reader() {
  start.arrive_and_wait();
  std::shared_lock<std::shared_mutex> lock(cache_mutex);
  looked_up = cache.get(2);
}

int main() {
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  return 0;
}
