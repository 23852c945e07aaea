// snag-race-suite
// expect: racy
// why: broken double-checked locking: the unlocked first check reads a plain pointer that another thread writes under the lock
#include <mutex>
#include <thread>

struct Widget {
  int value;
  explicit Widget(int v) : value(v) {}
};

Widget* instance = nullptr;
std::mutex init_mutex;
int seed;
Widget* got[2];

__attribute__((noinline)) Widget* get_instance() {
  Widget* w = instance;  // RACE:second
  if (w == nullptr) {
    std::lock_guard<std::mutex> g(init_mutex);
    w = instance;
    if (w == nullptr) {
      w = new Widget(seed);
      instance = w;  // RACE:first
    }
  }
  return w;
}

__attribute__((noinline)) void worker(int id) {
  got[id] = get_instance();
}

int main(int argc, char**) {
  seed = argc + 41;
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  int ok = got[0] == got[1] && got[0]->value == seed;
  delete instance;
  return ok ? 0 : 1;
}
