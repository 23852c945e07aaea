// explore suite: deadlock_two_locks, fixed twin.
// audit() takes the two locks in the same order as deposit(): accounts, then audit_log.
// explore-budget: 2000
#include <mutex>
#include <thread>

std::mutex accounts;
std::mutex audit_log;
int deposits = 0;  // guarded by both
int audits = 0;    // guarded by both

void deposit() {
  std::lock_guard<std::mutex> a(accounts);
  std::lock_guard<std::mutex> l(audit_log);
  ++deposits;
}

void audit() {
  std::lock_guard<std::mutex> a(accounts);
  std::lock_guard<std::mutex> l(audit_log);
  ++audits;
}

int main() {
  std::thread d(deposit);
  std::thread a(audit);
  d.join();
  a.join();
  return 0;
}
