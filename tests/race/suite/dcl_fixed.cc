// snag-race-suite
// expect: clean
// why: double-checked locking with an atomic pointer: acquire load on the fast path, release store on initialization
#include <atomic>
#include <mutex>
#include <thread>

struct Widget {
  int value;
  explicit Widget(int v) : value(v) {}
};

std::atomic<Widget*> instance{nullptr};
std::mutex init_mutex;
int seed;
Widget* got[2];
int read_back[2];

__attribute__((noinline)) Widget* get_instance() {
  Widget* w = instance.load(std::memory_order_acquire);
  if (w == nullptr) {
    std::lock_guard<std::mutex> g(init_mutex);
    w = instance.load(std::memory_order_relaxed);
    if (w == nullptr) {
      w = new Widget(seed);
      instance.store(w, std::memory_order_release);
    }
  }
  return w;
}

__attribute__((noinline)) void worker(int id) {
  got[id] = get_instance();
  read_back[id] = got[id]->value;  // reading the object after the fast path is safe too
}

int main(int argc, char**) {
  seed = argc + 41;
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  int ok = got[0] == got[1] && got[0]->value == seed && read_back[0] == seed && read_back[1] == seed;
  delete instance.load();
  return ok ? 0 : 1;
}
