// snag-race-suite
// expect: racy
// why: the worker takes the mutex inside ThreadSanitizer's AnnotateIgnoreSyncBegin/End, so that lock neither orders nor protects its increment, which races with main's locked one
#include <mutex>
#include <thread>

extern "C" void AnnotateIgnoreSyncBegin(const char *file, int line);
extern "C" void AnnotateIgnoreSyncEnd(const char *file, int line);

std::mutex m;
int counter = 0;

__attribute__((noinline)) void worker() {
  AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
  m.lock();
  counter++;  // RACE:first
  m.unlock();
  AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
}

int main() {
  std::thread t(worker);
  m.lock();
  counter++;  // RACE:second
  m.unlock();
  t.join();
  return 0;
}
