// snag-race-suite
// expect: clean
// why: push_back and empty() on the shared std::deque are both done under the same mutex
#include <deque>
#include <mutex>
#include <thread>

std::deque<long> q;
std::mutex m;
bool saw_empty = false;

__attribute__((noinline)) void producer() {
  for (long i = 0; i < 300; ++i) {
    std::lock_guard<std::mutex> g(m);
    q.push_back(i);
  }
}

__attribute__((noinline)) void poller() {
  std::lock_guard<std::mutex> g(m);
  saw_empty = q.empty();
}

int main() {
  std::thread p(producer), c(poller);
  p.join();
  c.join();
  return q.size() == 300 ? 0 : 1;
}
