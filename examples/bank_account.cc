// A bank account whose deposit path forgot the lock that withdraw takes.
// `snag race` reports the race on `balance_` with both threads' stacks.
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

class Account {
 public:
  void deposit(long amount) {
    balance_ += amount;  // BUG: no lock here
  }
  bool withdraw(long amount) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (balance_ < amount) return false;
    balance_ -= amount;
    return true;
  }
  long balance() {
    std::lock_guard<std::mutex> guard(mutex_);
    return balance_;
  }

 private:
  std::mutex mutex_;
  long balance_ = 0;
};

int main() {
  Account account;
  std::thread payroll([&] {
    for (int i = 0; i < 1000; ++i) account.deposit(10);
  });
  std::thread rent([&] {
    for (int i = 0; i < 1000; ++i) account.withdraw(5);
  });
  payroll.join();
  rent.join();
  std::printf("balance: %ld\n", account.balance());
}
