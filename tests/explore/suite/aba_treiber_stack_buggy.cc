// explore suite: aba_treiber_stack, buggy twin.
// pop() reads the head and its successor and then compare-exchanges the head, so when the
// slow popper is preempted before its compare-exchange while the other thread pops A and
// B and pushes A back (node reuse), the stale compare-exchange succeeds and makes the
// popped node B the head again (ABA).
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kNodes = 3;
constexpr int kNone = -1;

std::atomic<int> next_of[kNodes];  // the stack links nodes by index
std::atomic<int> head{kNone};
std::atomic<bool> held[kNodes];    // popped and not pushed back

void push(int node) {
  int old = head.load();
  do {
    next_of[node].store(old);
  } while (!head.compare_exchange_strong(old, node));
}

int pop() {
  for (;;) {
    int old = head.load();
    if (old == kNone)
      return kNone;
    int next = next_of[old].load();
    if (head.compare_exchange_strong(old, next))
      return old;
  }
}

void slow_popper() {
  int node = pop();
  if (node != kNone)
    held[node].store(true);
}

void recycler() {
  int a = pop();
  int b = pop();
  if (b != kNone)
    held[b].store(true);
  if (a != kNone)
    push(a);  // reuse: a goes back on the stack
}

int main() {
  for (int node = kNodes - 1; node >= 0; --node)
    push(node);  // stack: 0 -> 1 -> 2
  std::thread s(slow_popper);
  std::thread r(recycler);
  s.join();
  r.join();
  int steps = 0;
  for (int node = head.load(); node != kNone && steps < kNodes; node = next_of[node].load()) {
    assert(!held[node].load());  // BUG: assertion-failure
    ++steps;
  }
  return 0;
}
