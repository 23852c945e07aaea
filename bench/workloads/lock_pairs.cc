// lock_pairs: transfers between random pairs of 10,000 accounts, each
// account with its own std::mutex, both held at once (std::scoped_lock).
// A lockset detector names every pair of locks a thread ever held together:
// hundreds of thousands of distinct two-lock sets. The total is independent
// of the interleaving (transfers move money, they do not make or lose it).
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 2;
constexpr long kTransfersPerThread = 300000;
constexpr size_t kAccounts = 10000;

struct Account {
  std::mutex lock;
  long balance = 1000;
};

void transfer_randomly(std::vector<Account> &accounts, uint64_t seed) {
  for (long n = 0; n < kTransfersPerThread; ++n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const size_t from = (seed >> 20) % kAccounts, to = (seed >> 40) % kAccounts;
    if (from == to) continue;
    std::scoped_lock both(accounts[from].lock, accounts[to].lock);
    accounts[from].balance -= 1;
    accounts[to].balance += 1;
  }
}

}  // namespace

int main() {
  std::vector<Account> accounts(kAccounts);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) threads.emplace_back(transfer_randomly, std::ref(accounts), uint64_t(i + 1));
  for (std::thread &t : threads) t.join();
  long total = 0;
  for (const Account &a : accounts) total += a.balance;
  std::printf("total %ld\n", total);
  return total == long(kAccounts) * 1000 ? 0 : 1;
}
