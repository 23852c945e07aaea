// snag-check-suite
// expect: clean
// why: both Account::deposit and Account::withdraw hold the account's mutex while they update balance_
#include <mutex>
#include <thread>

class Account {
 public:
  void deposit(int amount) {
    std::lock_guard<std::mutex> lock(m_);
    balance_ += amount;
  }

  bool withdraw(int amount) {
    std::lock_guard<std::mutex> lock(m_);
    balance_ -= amount;
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
