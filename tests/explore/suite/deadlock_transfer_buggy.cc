// explore suite: deadlock_transfer, buggy twin.
// transfer() locks the source account and then the destination, so two opposite transfers
// that each lock their source before the other locks its destination (one preemption)
// deadlock.
// explore-budget: 2000
#include <mutex>
#include <thread>

struct Account {
  int id;
  int balance;  // guarded by m
  std::mutex m;
};

Account alice{1, 100, {}};
Account bob{2, 100, {}};

void transfer(Account& from, Account& to, int amount) {
  std::lock_guard<std::mutex> f(from.m);  // BUG: deadlock
  std::lock_guard<std::mutex> t(to.m);    // BUG: deadlock
  from.balance -= amount;
  to.balance += amount;
}

int main() {
  std::thread x(transfer, std::ref(alice), std::ref(bob), 10);
  std::thread y(transfer, std::ref(bob), std::ref(alice), 5);
  x.join();  // BUG: deadlock
  y.join();  // BUG: deadlock
  return alice.balance + bob.balance == 200 ? 0 : 2;
}
