// snag-race-suite
// expect: racy
// why: after tens of thousands of other pairs of locks, one thread touches x holding m1 and m2 and the other holding nothing
#include <cstdint>
#include <mutex>
#include <thread>

// As many_pairs_then_pair_fixed, but the second thread's last access to x
// holds no lock. The other side's locks in the report ({m1, m2}) come from
// a pair the race engine must not have retired while x's history named it.
struct Account {
  std::mutex lock;
  long balance = 100;
};

constexpr int kAccounts = 1000;
Account accounts[2][kAccounts];
std::mutex m1, m2;
long x = 0;

__attribute__((noinline)) void transfers(Account *mine, uint64_t seed) {
  for (int n = 0; n < 20000; ++n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const int from = int((seed >> 20) % kAccounts), to = int((seed >> 40) % kAccounts);
    if (from == to) continue;
    std::scoped_lock both(mine[from].lock, mine[to].lock);
    mine[from].balance -= 1;
    mine[to].balance += 1;
  }
}

__attribute__((noinline)) void touch_locked() {
  std::scoped_lock both(m1, m2);
  x += 1;  // RACE:first
}

__attribute__((noinline)) void locked_side() {
  touch_locked();
  transfers(accounts[0], 1);
  touch_locked();
}

__attribute__((noinline)) void unlocked_side() {
  touch_locked();
  transfers(accounts[1], 2);
  x += 1;  // RACE:second
}

int main() {
  std::thread a(locked_side), b(unlocked_side);
  a.join();
  b.join();
  return 0;
}
