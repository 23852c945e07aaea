// snag-race-suite
// expect: clean
// why: three threads share a mutex-protected total, and the status word is also written and read under the same mutex
#include <mutex>
#include <thread>

std::mutex m;
long total = 0;
int status = 0;
int a_saw = -1;

__attribute__((noinline)) void thread_a() {
  std::lock_guard<std::mutex> g(m);
  total += 1;
  a_saw = status;
}

__attribute__((noinline)) void thread_b() {
  std::lock_guard<std::mutex> g(m);
  total += 2;
}

__attribute__((noinline)) void thread_c() {
  std::lock_guard<std::mutex> g(m);
  total += 3;
  status = 7;
}

int main() {
  std::thread a(thread_a), b(thread_b), c(thread_c);
  a.join();
  b.join();
  c.join();
  return total == 6 && (a_saw == 0 || a_saw == 7) ? 0 : 1;
}
