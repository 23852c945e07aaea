// snag-check-suite
// expect: race
// why: Account::withdraw forgets the account's mutex that deposit() takes, so the two updates of balance_ race
#include <mutex>
#include <thread>

class Account {
 public:
  void deposit(int amount) {
    std::lock_guard<std::mutex> lock(m_);
    balance_ += amount;  // RACE:first
  }

  bool withdraw(int amount) {
    balance_ -= amount;  // RACE:second
    return true;
  }

  int balance() {
    std::lock_guard<std::mutex> lock(m_);
    return balance_;
  }

 private:
  std::mutex m_;
  int balance_ = 100;
};

int main() {
  Account account;
  std::thread payer([&] { account.deposit(50); });
  std::thread spender([&] { account.withdraw(30); });
  payer.join();
  spender.join();
  return account.balance() == 120 ? 0 : 1;
}
