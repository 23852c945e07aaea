// explore suite: use_before_init_ptr, buggy twin.
// main publishes the configuration only after starting the worker, so when the worker runs
// before main's store (main preempted right after creating the thread) it finds no
// configuration.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

struct Config {
  int workers;
};

std::atomic<Config*> config{nullptr};
std::atomic<int> started{0};

void worker() {
  Config* c = config.load(std::memory_order_acquire);
  assert(c != nullptr);  // BUG: assertion-failure
  started.fetch_add(c->workers);
}

int main() {
  std::thread t(worker);
  config.store(new Config{4}, std::memory_order_release);
  t.join();
  delete config.load();
  return 0;
}
