// snag-tsv-suite
// expect: clean
// why: the std::shared_ptr's reset() and use_count() are both made under the same mutex
#include <latch>
#include <memory>
#include <mutex>
#include <thread>

struct Session {
  int user;
};

std::shared_ptr<Session> active = std::make_shared<Session>(Session{7});
std::mutex active_mutex;
std::latch start(2);
long sharers = 0;

__attribute__((noinline)) void logout() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(active_mutex);
  active.reset();
}

__attribute__((noinline)) void audit() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(active_mutex);
  sharers = active.use_count();
}

int main() {
  std::shared_ptr<Session> keep = active;
  std::thread l(logout), a(audit);
  l.join();
  a.join();
  return 0;
}
