// snag-race-suite
// expect: clean
// why: the same forced order as dcl_both_check_first_racy (both threads check before the first initializes), with an atomic pointer: acquire load on the fast path, release store on initialization
#include <atomic>
#include <mutex>
#include <thread>

struct Widget {
  int value;
  explicit Widget(int v) : value(v) {}
};

std::atomic<Widget*> instance{nullptr};
std::mutex init_mutex;
std::atomic<int> turn{0};
int seed;
Widget* got[2];

void wait_for_turn(int n) {
  while (turn.load(std::memory_order_relaxed) != n) std::this_thread::yield();
}

// Each thread makes the unlocked check on its turn and then lets the other
// thread go on: thread 0 checks, thread 1 checks, thread 0 initializes under
// the lock, then thread 1 takes the lock and finds the widget.
__attribute__((noinline)) Widget* get_instance(int my_turn) {
  Widget* w = instance.load(std::memory_order_acquire);
  turn.store(my_turn, std::memory_order_relaxed);
  wait_for_turn(my_turn + 1);
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

__attribute__((noinline)) void first_thread() {
  got[0] = get_instance(1);
  turn.store(3, std::memory_order_relaxed);
}

__attribute__((noinline)) void second_thread() {
  wait_for_turn(1);
  got[1] = get_instance(2);
}

int main(int argc, char**) {
  seed = argc + 41;
  std::thread a(first_thread), b(second_thread);
  a.join();
  b.join();
  int ok = got[0] == got[1] && got[0]->value == seed;
  delete instance.load();
  return ok ? 0 : 1;
}
