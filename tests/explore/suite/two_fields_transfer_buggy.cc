// explore suite: two_fields_transfer, buggy twin.
// transfer() debits one account and credits the other in two atomic operations, so an
// audit that reads the accounts while transfer() is between them (one preemption) sees
// money missing or doubled.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> checking{70};
std::atomic<int> savings{30};

void transfer() {
  checking.fetch_sub(20);
  savings.fetch_add(20);
}

void audit() {
  int c = checking.load();
  int s = savings.load();
  assert(c + s == 100);  // BUG: assertion-failure
}

int main() {
  std::thread a(transfer);
  std::thread b(audit);
  a.join();
  b.join();
  return 0;
}
