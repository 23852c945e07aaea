// snag-race-suite
// expect: racy
// why: double-checked locking through a plain pointer, in the order a detector that remembers one read per variable misses: both threads make the unlocked check before the first one initializes under the lock (the turns go through a relaxed atomic, which orders nothing)
#include <atomic>
#include <mutex>
#include <thread>

struct Widget {
  int value;
  explicit Widget(int v) : value(v) {}
};

Widget* instance = nullptr;
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
  Widget* w = instance;  // RACE:second
  turn.store(my_turn, std::memory_order_relaxed);
  wait_for_turn(my_turn + 1);
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
  delete instance;
  return ok ? 0 : 1;
}
