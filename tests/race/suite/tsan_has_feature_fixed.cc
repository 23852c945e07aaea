// snag-race-suite
// expect: clean
// why: the hand-off goes through relaxed atomics, which order nothing, and the program explains it with ThreadSanitizer's happens-before annotations, compiled in only when __has_feature(thread_sanitizer) says a race detector is there; under snag-c++ it must say so
#include <atomic>
#include <thread>

#if defined(__has_feature) && __has_feature(thread_sanitizer)
extern "C" void AnnotateHappensBefore(const char *file, int line, const volatile void *addr);
extern "C" void AnnotateHappensAfter(const char *file, int line, const volatile void *addr);
#define HANDED_OVER(addr) AnnotateHappensBefore(__FILE__, __LINE__, addr)
#define TAKEN_OVER(addr) AnnotateHappensAfter(__FILE__, __LINE__, addr)
#else
#define HANDED_OVER(addr)
#define TAKEN_OVER(addr)
#endif

int payload;
std::atomic<int> ready{0};

int main() {
  std::thread producer([] {
    payload = 42;
    HANDED_OVER(&payload);
    ready.store(1, std::memory_order_relaxed);
  });
  while (ready.load(std::memory_order_relaxed) == 0) std::this_thread::yield();
  TAKEN_OVER(&payload);
  int seen = payload;
  producer.join();
  return seen == 42 ? 0 : 1;
}
