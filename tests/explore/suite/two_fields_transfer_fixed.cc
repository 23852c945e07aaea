// explore suite: two_fields_transfer, fixed twin.
// transfer() and audit() hold one mutex for both accounts, so the audit sees either the
// state before the transfer or the state after it.
// explore-budget: 2000
#include <atomic>
#include <cassert>
#include <mutex>
#include <thread>

std::mutex bank;
std::atomic<int> checking{70};
std::atomic<int> savings{30};

void transfer() {
  std::lock_guard<std::mutex> g(bank);
  checking.fetch_sub(20);
  savings.fetch_add(20);
}

void audit() {
  std::lock_guard<std::mutex> g(bank);
  int c = checking.load();
  int s = savings.load();
  assert(c + s == 100);
}

int main() {
  std::thread a(transfer);
  std::thread b(audit);
  a.join();
  b.join();
  return 0;
}
