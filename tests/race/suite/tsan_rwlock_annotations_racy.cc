// snag-race-suite
// expect: racy
// why: a home-made lock announced with AnnotateRWLockAcquired/Released protects the writer, but the reader reads without taking it
#include <atomic>
#include <thread>

extern "C" void AnnotateRWLockCreate(const char *file, int line, const volatile void *lock);
extern "C" void AnnotateRWLockDestroy(const char *file, int line, const volatile void *lock);
extern "C" void AnnotateRWLockAcquired(const char *file, int line, const volatile void *lock, long is_w);
extern "C" void AnnotateRWLockReleased(const char *file, int line, const volatile void *lock, long is_w);

// A test-and-set lock whose flag is touched with relaxed atomics only, so
// the annotations are the only ordering it gives.
struct HomeMadeLock {
  std::atomic<bool> held{false};
  void lock(bool exclusive) {
    while (held.exchange(true, std::memory_order_relaxed)) {
    }
    AnnotateRWLockAcquired(__FILE__, __LINE__, this, exclusive);
  }
  void unlock(bool exclusive) {
    AnnotateRWLockReleased(__FILE__, __LINE__, this, exclusive);
    held.store(false, std::memory_order_relaxed);
  }
};

HomeMadeLock lock;
int value = 0;
int seen = 0;

__attribute__((noinline)) void writer() {
  lock.lock(true);
  value = 42;  // RACE:first
  lock.unlock(true);
}

__attribute__((noinline)) void reader() {
  seen = value;  // RACE:second
}

int main() {
  AnnotateRWLockCreate(__FILE__, __LINE__, &lock);
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  AnnotateRWLockDestroy(__FILE__, __LINE__, &lock);
  return 0;
}
