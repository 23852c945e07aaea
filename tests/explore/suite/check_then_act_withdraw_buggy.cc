// explore suite: check_then_act_withdraw, buggy twin.
// withdraw() checks the balance and subtracts in a second atomic operation, so when both
// threads pass the check before either subtracts (one preemption between check and act)
// the balance goes negative.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> balance{100};

void withdraw(int amount) {
  if (balance.load(std::memory_order_relaxed) >= amount) {
    int after = balance.fetch_sub(amount, std::memory_order_relaxed) - amount;
    assert(after >= 0);  // BUG: assertion-failure
  }
}

int main() {
  std::thread a(withdraw, 60);
  std::thread b(withdraw, 70);
  a.join();
  b.join();
  return 0;
}
