// snag-race-suite
// expect: clean
// why: both threads write the balance under `accounts`; `audit` only guards the log
// run: snag race --potential
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
    balance += 10;
  }
  {
    std::lock_guard<std::mutex> g(audit);
    ++log_entries;
  }
  stage.store(1, std::memory_order_relaxed);
}

__attribute__((noinline)) void correct() {
  while (stage.load(std::memory_order_relaxed) != 1) std::this_thread::yield();
  {
    std::lock_guard<std::mutex> g(audit);
    ++log_entries;
  }
  std::lock_guard<std::mutex> g(accounts);
  balance -= 1;
}

int main() {
  std::thread a(deposit), b(correct);
  a.join();
  b.join();
  return balance == 9 ? 0 : 1;
}
