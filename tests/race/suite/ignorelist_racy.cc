// snag-race-suite
// expect: racy
// why: the ignore list names only the statistics function; the balance is updated by two threads without a lock in a function it does not name, and that race is still reported (the twin of ignorelist_fixed)
// build-flags: -fsanitize-ignorelist=ignorelist_statistics.txt
#include <thread>

long requests;  // approximate: updated without a lock on purpose
long balance;

__attribute__((noinline)) void count_request() { requests++; }

__attribute__((noinline)) void deposit(long amount) {
  count_request();
  balance += amount;  // RACE:first RACE:second
}

int main() {
  std::thread a([] { deposit(5); });
  std::thread b([] { deposit(7); });
  a.join();
  b.join();
  return 0;
}
