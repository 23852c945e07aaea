// snag-race-suite
// expect: clean
// why: the second thread takes the lock (blocking until the owner releases it) before it bumps the counter
#include <atomic>
#include <thread>

// ThreadSanitizer's custom-mutex annotations (sanitizer/tsan_interface.h),
// weak so that the plain build links without a sanitizer runtime.
extern "C" {
__attribute__((weak)) void __tsan_mutex_pre_lock(void* addr, unsigned flags);
__attribute__((weak)) void __tsan_mutex_post_lock(void* addr, unsigned flags, int recursion);
__attribute__((weak)) int __tsan_mutex_pre_unlock(void* addr, unsigned flags);
__attribute__((weak)) void __tsan_mutex_post_unlock(void* addr, unsigned flags);
}
constexpr unsigned kTryLock = 1u << 4, kTryLockFailed = 1u << 5;

class SpinMutex {
 public:
  void lock() {
    if (__tsan_mutex_pre_lock) __tsan_mutex_pre_lock(this, 0);
    while (locked_.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    if (__tsan_mutex_post_lock) __tsan_mutex_post_lock(this, 0, 0);
  }
  bool try_lock() {
    if (__tsan_mutex_pre_lock) __tsan_mutex_pre_lock(this, kTryLock);
    bool ok = !locked_.exchange(true, std::memory_order_acquire);
    if (__tsan_mutex_post_lock) __tsan_mutex_post_lock(this, kTryLock | (ok ? 0 : kTryLockFailed), 0);
    return ok;
  }
  void unlock() {
    if (__tsan_mutex_pre_unlock) __tsan_mutex_pre_unlock(this, 0);
    locked_.store(false, std::memory_order_release);
    if (__tsan_mutex_post_unlock) __tsan_mutex_post_unlock(this, 0);
  }

 private:
  std::atomic<bool> locked_{false};
};

SpinMutex mu;
long counter;
std::atomic<int> stage{0};

__attribute__((noinline)) void owner() {
  mu.lock();
  ++counter;
  mu.unlock();
  mu.lock();
  stage.store(1, std::memory_order_relaxed);
  while (stage.load(std::memory_order_relaxed) != 2) std::this_thread::yield();
  mu.unlock();
}

__attribute__((noinline)) void other() {
  while (stage.load(std::memory_order_relaxed) != 1) std::this_thread::yield();
  stage.store(2, std::memory_order_relaxed);
  mu.lock();
  ++counter;
  mu.unlock();
}

int main() {
  std::thread a(owner), b(other);
  a.join();
  b.join();
  return counter == 2 ? 0 : 1;
}
