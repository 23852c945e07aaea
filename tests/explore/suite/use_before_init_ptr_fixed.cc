// explore suite: use_before_init_ptr, fixed twin.
// main publishes the configuration before starting the worker.
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
  assert(c != nullptr);
  started.fetch_add(c->workers);
}

int main() {
  config.store(new Config{4}, std::memory_order_release);
  std::thread t(worker);
  t.join();
  delete config.load();
  return 0;
}
