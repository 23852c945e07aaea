// snag-tsv-suite
// expect: violation
// object: std::shared_ptr<Session>
// why: one thread reset()s a global std::shared_ptr while another reads its use_count(), with no lock
#include <latch>
#include <memory>
#include <thread>

struct Session {
  int user;
};

std::shared_ptr<Session> active = std::make_shared<Session>(Session{7});
std::latch start(2);
long sharers = 0;

__attribute__((noinline)) void logout() {
  start.arrive_and_wait();
  active.reset();  // TSV:first
}

__attribute__((noinline)) void audit() {
  start.arrive_and_wait();
  sharers = active.use_count();  // TSV:second
}

int main() {
  std::shared_ptr<Session> keep = active;  // the Session outlives both threads
  std::thread l(logout), a(audit);
  l.join();
  a.join();
  return 0;
}
