// snag-tsv-suite
// expect: clean
// why: the global std::shared_ptr is const and both threads only copy it (copying from a shared_ptr is a read, so concurrent copies are fine)
#include <latch>
#include <memory>
#include <thread>

struct Widget {
  int id;
  explicit Widget(int i) : id(i) {}
};

const std::shared_ptr<Widget> current = std::make_shared<Widget>(1);
std::shared_ptr<Widget> replacement = std::make_shared<Widget>(2);
std::latch start(2);
int used_id = 0;
int published_id = 0;

__attribute__((noinline)) void publisher() {
  start.arrive_and_wait();
  std::shared_ptr<Widget> seen = current;
  published_id = seen->id;
}

__attribute__((noinline)) void user() {
  start.arrive_and_wait();
  std::shared_ptr<Widget> mine = current;
  used_id = mine->id;
}

int main() {
  std::shared_ptr<Widget> keep = current;
  std::thread p(publisher), u(user);
  p.join();
  u.join();
  return 0;
}
