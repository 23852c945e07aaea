// snag-tsv-suite
// expect: clean
// why: the two readers' find() calls run concurrently with each other (reads) but only after the writer's insert(), behind a std::barrier
#include <barrier>
#include <set>
#include <thread>

std::set<int> members = {10, 20, 30};
std::barrier<> phase(3);
bool found[2] = {false, false};

__attribute__((noinline)) void join_member() {
  members.insert(40);
  phase.arrive_and_wait();
}

__attribute__((noinline)) void lookup(int slot, int key) {
  phase.arrive_and_wait();
  found[slot] = members.find(key) != members.end();
}

int main() {
  std::thread w(join_member), r1(lookup, 0, 10), r2(lookup, 1, 30);
  w.join();
  r1.join();
  r2.join();
  return 0;
}
