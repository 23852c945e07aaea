// snag-race-suite
// expect: racy
// why: a plain global std::shared_ptr is assigned by one thread while another copies it; shared_ptr objects themselves are not thread-safe
#include <memory>
#include <thread>

struct Config {
  int level;
  explicit Config(int l) : level(l) {}
};

std::shared_ptr<Config> slot;
bool got_one = false;

__attribute__((noinline)) void producer(std::shared_ptr<Config> c) {
  slot = std::move(c);  // RACE:first
}

__attribute__((noinline)) void consumer() {
  std::shared_ptr<Config> c = slot;  // RACE:second
  got_one = c != nullptr;
}

int main(int argc, char**) {
  std::thread p(producer, std::make_shared<Config>(argc)), c(consumer);
  p.join();
  c.join();
  return slot->level == argc ? 0 : 1;
}
