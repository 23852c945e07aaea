// snag-check-suite
// expect: clean
// why: each hand-over takes both stage mutexes at once with std::scoped_lock, which avoids the a->b->c->a cycle
#include <mutex>
#include <thread>

struct Stage {
  std::mutex m;
  int items = 0;
};

Stage stages[3];

void hand_over(int from) {
  Stage& src = stages[from];
  Stage& dst = stages[(from + 1) % 3];
  std::scoped_lock both(src.m, dst.m);
  dst.items += src.items;
  src.items = 0;
}

int main() {
  for (int i = 0; i < 3; ++i) stages[i].items = i + 1;
  std::thread a(hand_over, 0);
  std::thread b(hand_over, 1);
  std::thread c(hand_over, 2);
  a.join();
  b.join();
  c.join();
  return 0;
}
