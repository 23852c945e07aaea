// explore suite: deadlock_two_locks, buggy twin.
// deposit() takes accounts then audit_log while audit() takes them in the opposite order,
// so when each thread gets its first lock before the other's second (one preemption) they
// wait for each other forever.
// explore-budget: 2000
#include <mutex>
#include <thread>

std::mutex accounts;
std::mutex audit_log;
int deposits = 0;  // guarded by both
int audits = 0;    // guarded by both

void deposit() {
  std::lock_guard<std::mutex> a(accounts);   // BUG: deadlock
  std::lock_guard<std::mutex> l(audit_log);  // BUG: deadlock
  ++deposits;
}

void audit() {
  std::lock_guard<std::mutex> l(audit_log);  // BUG: deadlock
  std::lock_guard<std::mutex> a(accounts);   // BUG: deadlock
  ++audits;
}

int main() {
  std::thread d(deposit);
  std::thread a(audit);
  d.join();  // BUG: deadlock
  a.join();  // BUG: deadlock
  return 0;
}
