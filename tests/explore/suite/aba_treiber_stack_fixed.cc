// explore suite: aba_treiber_stack, fixed twin.
// The head carries a modification tag next to the node index, bumped by every push and
// pop, so a compare-exchange with a stale head fails even when the same node is back on
// top.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <cstdint>
#include <thread>

constexpr int kNodes = 3;
constexpr int kNone = -1;

std::atomic<int> next_of[kNodes];  // the stack links nodes by index
std::atomic<uint64_t> head;        // tag << 32 | (uint32_t)index
std::atomic<bool> held[kNodes];    // popped and not pushed back

uint64_t pack(int node, uint64_t tag) { return tag << 32 | static_cast<uint32_t>(node); }
int index_of(uint64_t h) { return static_cast<int>(static_cast<uint32_t>(h)); }
uint64_t tag_of(uint64_t h) { return h >> 32; }

void push(int node) {
  uint64_t old = head.load();
  do {
    next_of[node].store(index_of(old));
  } while (!head.compare_exchange_strong(old, pack(node, tag_of(old) + 1)));
}

int pop() {
  for (;;) {
    uint64_t old = head.load();
    if (index_of(old) == kNone)
      return kNone;
    int next = next_of[index_of(old)].load();
    if (head.compare_exchange_strong(old, pack(next, tag_of(old) + 1)))
      return index_of(old);
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
  head.store(pack(kNone, 0));
  for (int node = kNodes - 1; node >= 0; --node)
    push(node);  // stack: 0 -> 1 -> 2
  std::thread s(slow_popper);
  std::thread r(recycler);
  s.join();
  r.join();
  int steps = 0;
  for (int node = index_of(head.load()); node != kNone && steps < kNodes;
       node = next_of[node].load()) {
    assert(!held[node].load());
    ++steps;
  }
  return 0;
}
