// snag-race-suite
// expect: clean
// why: a std::shared_ptr is handed between threads through a mutex-protected slot; the pointee is read only after taking it under the lock
#include <memory>
#include <mutex>
#include <thread>

struct Config {
  int level;
  explicit Config(int l) : level(l) {}
};

std::shared_ptr<Config> slot;
std::mutex slot_mutex;
bool got_one = false;
int seen_level = -1;

__attribute__((noinline)) void producer(std::shared_ptr<Config> c) {
  std::lock_guard<std::mutex> g(slot_mutex);
  slot = std::move(c);
}

__attribute__((noinline)) void consumer() {
  std::shared_ptr<Config> c;
  {
    std::lock_guard<std::mutex> g(slot_mutex);
    c = slot;
  }
  got_one = c != nullptr;
  if (c) seen_level = c->level;
}

int main(int argc, char**) {
  std::thread p(producer, std::make_shared<Config>(argc)), c(consumer);
  p.join();
  c.join();
  return slot->level == argc && (!got_one || seen_level == argc) ? 0 : 1;
}
