// explore suite: lazy_singleton, fixed twin.
// get() publishes a new instance with a compare-exchange, and the thread that loses the
// race discards its instance and uses the winner's.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

struct Registry {
  std::atomic<int> users{0};
};

std::atomic<Registry*> instance{nullptr};

Registry* get() {
  Registry* r = instance.load();
  if (r == nullptr) {
    Registry* fresh = new Registry;
    if (instance.compare_exchange_strong(r, fresh))
      r = fresh;
    else
      delete fresh;
  }
  return r;
}

void user() { get()->users.fetch_add(1); }

int main() {
  std::thread a(user);
  std::thread b(user);
  a.join();
  b.join();
  Registry* r = instance.load();
  assert(r->users.load() == 2);
  delete r;
  return 0;
}
