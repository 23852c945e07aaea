// explore suite: check_then_act_withdraw, fixed twin.
// withdraw() checks and subtracts in one compare-exchange loop, so no other withdrawal can
// slip in between the check and the subtraction.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> balance{100};

void withdraw(int amount) {
  int seen = balance.load(std::memory_order_relaxed);
  while (seen >= amount &&
         !balance.compare_exchange_strong(seen, seen - amount, std::memory_order_relaxed)) {
  }
  if (seen >= amount) {
    int after = seen - amount;
    assert(after >= 0);
  }
}

int main() {
  std::thread a(withdraw, 60);
  std::thread b(withdraw, 70);
  a.join();
  b.join();
  return 0;
}
