// detached_threads: 20,000 detached threads started one after another, each
// touching a little shared state under a mutex and telling main it is done
// through a condition variable (a thread per request, nobody joins). Runtime
// state of a thread nobody can join must go when it ends: memory should stay
// flat and clocks short, not grow with history.
#include <pthread.h>

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>

namespace {

constexpr int kThreads = 20000;
std::mutex g_lock;
std::condition_variable g_done_changed;
int g_done = 0;
uint64_t g_total = 0;

void *work(void *arg) {
  uint64_t i = reinterpret_cast<uintptr_t>(arg);
  uint64_t local[16];
  for (int k = 0; k < 16; ++k) local[k] = i * 1315423911u + k;
  uint64_t sum = 0;
  for (uint64_t v : local) sum ^= v;
  // Notified under the lock: main may return (and destroy the condition
  // variable) as soon as it sees the last count, so the last worker must not
  // touch it after it unlocks.
  std::lock_guard<std::mutex> hold(g_lock);
  g_total = g_total * 31 + sum;
  ++g_done;
  g_done_changed.notify_one();
  return nullptr;
}

}  // namespace

int main() {
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < kThreads; ++i) {
    pthread_t worker;
    if (pthread_create(&worker, &detached, work, reinterpret_cast<void *>(uintptr_t(i))) != 0) return 1;
    std::unique_lock<std::mutex> hold(g_lock);
    g_done_changed.wait(hold, [i] { return g_done == i + 1; });
  }
  pthread_attr_destroy(&detached);
  std::printf("checksum %llx\n", static_cast<unsigned long long>(g_total));
}
