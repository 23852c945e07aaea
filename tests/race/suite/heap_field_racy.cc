// snag-race-suite
// expect: racy
// why: one thread updates a field of a heap object while another reads it, no lock
#include <thread>

struct Account {
  long id;
  long balance;
};

Account* account;
long seen;

__attribute__((noinline)) void deposit() {
  account->balance += 10;  // RACE:first
}

__attribute__((noinline)) void audit() {
  seen = account->balance;  // RACE:second
}

int main() {
  account = new Account{1, 100};
  std::thread a(deposit), b(audit);
  a.join();
  b.join();
  delete account;
  return seen >= 100 ? 0 : 1;
}
