// snag-tsv-suite
// expect: violation
// object: std::set<int>
// why: two readers call find() on a std::set (reads, fine with each other) while a third thread insert()s into it with no lock
#include <latch>
#include <set>
#include <thread>

std::set<int> members = {10, 20, 30};
std::latch start(3);
bool found[2] = {false, false};

__attribute__((noinline)) void join_member() {
  start.arrive_and_wait();
  members.insert(40);  // TSV:first
}

__attribute__((noinline)) void lookup(int slot, int key) {
  start.arrive_and_wait();
  found[slot] = members.find(key) != members.end();  // TSV:second
}

int main() {
  std::thread w(join_member), r1(lookup, 0, 10), r2(lookup, 1, 30);
  w.join();
  r1.join();
  r2.join();
  return 0;
}
