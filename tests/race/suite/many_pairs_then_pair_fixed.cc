// snag-race-suite
// expect: clean
// why: x is only ever touched holding both m1 and m2; in between each thread holds tens of thousands of other pairs of locks
#include <cstdint>
#include <mutex>
#include <thread>

// Each thread moves money between random pairs of its own 1,000 accounts
// (no account is shared), making ~20,000 distinct two-lock sets: enough for
// the race engine to retire pairs nothing names any more several times
// over. The set {m1, m2} protecting x stays named by x's state word and
// histories all along, so it must keep its identity and members.
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
  x += 1;
}

__attribute__((noinline)) void worker(int side) {
  touch_locked();
  transfers(accounts[side], uint64_t(side) + 1);
  touch_locked();
}

int main() {
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  return x == 4 ? 0 : 1;
}
