// snag-tsv-suite
// expect: clean
// why: the std::forward_list's push_front and front() are both made under the same mutex
#include <forward_list>
#include <latch>
#include <mutex>
#include <thread>

std::forward_list<int> recent = {1};
std::mutex recent_mutex;
std::latch start(2);
int newest = 0;

__attribute__((noinline)) void pusher() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(recent_mutex);
  recent.push_front(2);
}

__attribute__((noinline)) void peeker() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(recent_mutex);
  newest = recent.front();
}

int main() {
  std::thread p(pusher), k(peeker);
  p.join();
  k.join();
  return 0;
}
