// explore suite: lazy_singleton, buggy twin.
// get() checks the instance pointer and publishes a new instance with a separate store, so
// when both threads see no instance before either publishes (one preemption after the
// check) each registers with its own instance and one registration is lost.
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
    r = new Registry;
    instance.store(r);
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
  assert(r->users.load() == 2);  // BUG: assertion-failure
  delete r;
  return 0;
}
