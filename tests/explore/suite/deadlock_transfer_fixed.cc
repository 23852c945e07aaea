// explore suite: deadlock_transfer, fixed twin.
// transfer() locks the account with the lower id first, whichever direction the money
// goes.
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
  Account& low = from.id < to.id ? from : to;
  Account& high = from.id < to.id ? to : from;
  std::lock_guard<std::mutex> f(low.m);
  std::lock_guard<std::mutex> t(high.m);
  from.balance -= amount;
  to.balance += amount;
}

int main() {
  std::thread x(transfer, std::ref(alice), std::ref(bob), 10);
  std::thread y(transfer, std::ref(bob), std::ref(alice), 5);
  x.join();
  y.join();
  return alice.balance + bob.balance == 200 ? 0 : 2;
}
