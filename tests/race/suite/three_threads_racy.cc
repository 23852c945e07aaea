// snag-race-suite
// expect: racy
// why: three threads share a mutex-protected total correctly, but thread C writes a status word after its critical section that thread A reads after its own
#include <mutex>
#include <thread>

std::mutex m;
long total = 0;  // always accessed under m
int status = 0;  // the one racy variable
int a_saw = -1;

__attribute__((noinline)) void thread_a() {
  {
    std::lock_guard<std::mutex> g(m);
    total += 1;
  }
  a_saw = status;  // RACE:second
}

__attribute__((noinline)) void thread_b() {
  std::lock_guard<std::mutex> g(m);
  total += 2;
}

__attribute__((noinline)) void thread_c() {
  {
    std::lock_guard<std::mutex> g(m);
    total += 3;
  }
  status = 7;  // RACE:first
}

int main() {
  std::thread a(thread_a), b(thread_b), c(thread_c);
  a.join();
  b.join();
  c.join();
  return total == 6 ? 0 : 1;
}
