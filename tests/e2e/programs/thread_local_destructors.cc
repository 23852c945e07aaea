// Work done in thread_local destructors, which run after the runtime's
// thread-exit event: each of two joined threads and one detached thread
// takes a lock and writes kAccesses elements of its own row of a shared
// array while its thread_local object is destroyed (a new granule each
// time, so every access reaches the engine). What the engines record there (learn's
// access counts) must not be lost, nor keep the thread's record alive.
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

namespace {

constexpr int kAccesses = 10000;

std::mutex g_lock;
long g_totals[3][kAccesses];
std::atomic<int> g_destroyed{0};

struct Flusher {
  long local = 0;
  ~Flusher() {
    long *row = g_totals[local - 1];  // one access site in the loop
    for (int i = 0; i < kAccesses; ++i) {
      std::lock_guard<std::mutex> hold(g_lock);
      row[i] = i;  // MARK:destructor-write
    }
    g_destroyed.fetch_add(1);
  }
};

thread_local Flusher t_flusher;

void *detached_body(void *) {
  t_flusher.local = 3;
  return nullptr;
}

}  // namespace

int main() {
  std::thread a([] { t_flusher.local = 1; });
  std::thread b([] { t_flusher.local = 2; });
  a.join();
  b.join();
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t c;
  if (pthread_create(&c, &attr, detached_body, nullptr) != 0) return 1;
  pthread_attr_destroy(&attr);
  while (g_destroyed.load() < 3) std::this_thread::yield();
  long sum = 0;  // the last element of each row (few accesses here)
  for (const auto &row : g_totals) sum += row[kAccesses - 1];
  std::printf("%ld\n", sum);
}
