// snag-race-suite
// expect: potential
// why: the balance is written under `accounts` by one thread and under `audit` by the other; this run orders the two only because the first thread also took `audit` (to log) before the second did
#include <atomic>
#include <mutex>
#include <thread>

std::mutex accounts, audit;
long balance;
int log_entries;
std::atomic<int> stage{0};

__attribute__((noinline)) void deposit() {
  {
    std::lock_guard<std::mutex> g(accounts);
    balance += 10;  // RACE:first
  }
  {
    std::lock_guard<std::mutex> g(audit);
    ++log_entries;
  }
  stage.store(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void correct() {
  while (stage.load(std::memory_order_relaxed) != 1) std::this_thread::yield();
  std::lock_guard<std::mutex> g(audit);
  ++log_entries;
  balance -= 1;  // RACE:second
}

int main() {
  std::thread a(deposit), b(correct);
  a.join();
  b.join();
  return balance == 9 ? 0 : 1;
}
