// snag-check-suite
// expect: clean
// why: paper 001 "Bank Fixed": the transfers are acyclic (a->b and b->c), so the nested locks are always taken in the order a, b, c
#include <mutex>
#include <thread>

class Account {
 public:
  explicit Account(int balance) : balance_(balance) {}

  void transfer(Account& other, int amount) {
    std::lock_guard<std::mutex> lock(sync_);
    balance_ -= amount;
    other.deposit(amount);
  }

  void deposit(int amount) {
    std::lock_guard<std::mutex> lock(sync_);
    balance_ += amount;
  }

  int balance() {
    std::lock_guard<std::mutex> lock(sync_);
    return balance_;
  }

 private:
  std::mutex sync_;
  int balance_;
};

Account a(100), b(100), c(100);

int main() {
  std::thread t1([] { a.transfer(b, 10); });
  std::thread t2([] { b.transfer(c, 20); });
  t1.join();
  t2.join();
  return a.balance() + b.balance() + c.balance() == 300 ? 0 : 1;
}
