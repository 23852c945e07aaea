// snag-race-suite
// expect: racy
// why: one thread push_backs into a std::deque while another checks empty(), with no lock
#include <deque>
#include <thread>

std::deque<long> q;
bool saw_empty = false;

__attribute__((noinline)) void producer() {
  for (long i = 0; i < 300; ++i)
    q.push_back(i);  // RACE:first
}

__attribute__((noinline)) void poller() {
  saw_empty = q.empty();  // RACE:second
}

int main() {
  std::thread p(producer), c(poller);
  p.join();
  c.join();
  return q.size() == 300 ? 0 : 1;
}
