// snag-race-suite
// expect: clean
// why: the heap object's field is updated and read under the same mutex
#include <mutex>
#include <thread>

struct Account {
  long id;
  long balance;
};

Account* account;
long seen;
std::mutex m;

__attribute__((noinline)) void deposit() {
  std::lock_guard<std::mutex> g(m);
  account->balance += 10;
}

__attribute__((noinline)) void audit() {
  std::lock_guard<std::mutex> g(m);
  seen = account->balance;
}

int main() {
  account = new Account{1, 100};
  std::thread a(deposit), b(audit);
  a.join();
  b.join();
  delete account;
  return seen >= 100 ? 0 : 1;
}
