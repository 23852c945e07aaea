// snag-tsv-suite
// expect: violation
// object: std::shared_ptr<Widget>
// why: one thread assigns a new value to a global std::shared_ptr while another thread copies it; the shared_ptr object itself is not thread-safe
#include <latch>
#include <memory>
#include <thread>

struct Widget {
  int id;
  explicit Widget(int i) : id(i) {}
};

std::shared_ptr<Widget> current = std::make_shared<Widget>(1);
std::shared_ptr<Widget> replacement = std::make_shared<Widget>(2);
std::latch start(2);
int used_id = 0;

__attribute__((noinline)) void publisher() {
  start.arrive_and_wait();
  current = replacement;  // TSV:first
}

__attribute__((noinline)) void user() {
  start.arrive_and_wait();
  std::shared_ptr<Widget> mine = current;  // TSV:second
  used_id = mine->id;
}

int main() {
  std::shared_ptr<Widget> keep = current;  // the first Widget outlives both threads
  std::thread p(publisher), u(user);
  p.join();
  u.join();
  return 0;
}
