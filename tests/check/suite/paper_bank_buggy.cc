// snag-check-suite
// expect: deadlock
// why: paper 001 "Bank Broken" (Fig. 3): transfer() holds this->sync and deposit() takes other.sync; transfers a->b and b->a run at once form a cycle
#include <mutex>
#include <thread>

class Account {
 public:
  explicit Account(int balance) : balance_(balance) {}

  void transfer(Account& other, int amount) {
    std::lock_guard<std::mutex> lock(sync_);  // DEADLOCK
    balance_ -= amount;
    other.deposit(amount);
  }

  void deposit(int amount) {
    std::lock_guard<std::mutex> lock(sync_);  // DEADLOCK
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

Account a(100), b(100);

int main() {
  std::thread t1([] { a.transfer(b, 10); });
  std::thread t2([] { b.transfer(a, 20); });
  t1.join();
  t2.join();
  return a.balance() + b.balance() == 200 ? 0 : 1;
}
