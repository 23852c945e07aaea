// Two transfers between the same accounts lock them in opposite orders: when
// both take their first lock before either takes its second, they deadlock.
#include <cstdio>
#include <mutex>
#include <thread>

struct Account {
  std::mutex mutex;
  long balance = 100;
};

void transfer(Account &from, Account &to, long amount) {
  std::lock_guard<std::mutex> first(from.mutex);
  std::lock_guard<std::mutex> second(to.mutex);  // BUG: lock order depends on the arguments
  from.balance -= amount;
  to.balance += amount;
}

int main() {
  Account alice, bob;
  std::thread t1([&] { transfer(alice, bob, 10); });
  std::thread t2([&] { transfer(bob, alice, 20); });
  t1.join();
  t2.join();
  std::printf("alice %ld bob %ld\n", alice.balance, bob.balance);
}
