// snag-check-suite
// expect: deadlock
// why: Ledger::post locks accounts_m_ then journal_m_ while Ledger::audit locks journal_m_ then accounts_m_ (found by calling the two concurrently)
// entry: library
#include <mutex>
#include <vector>

class Ledger {
 public:
  void post(int account, int amount) {
    std::lock_guard<std::mutex> accounts(accounts_m_);  // DEADLOCK
    std::lock_guard<std::mutex> journal(journal_m_);  // DEADLOCK
    balances_[account & 3] += amount;
    journal_.push_back(amount);
  }

  bool audit() {
    std::lock_guard<std::mutex> journal(journal_m_);  // DEADLOCK
    std::lock_guard<std::mutex> accounts(accounts_m_);  // DEADLOCK
    long sum = 0, posted = 0;
    for (int b : balances_) sum += b;
    for (int a : journal_) posted += a;
    return sum == posted;
  }

 private:
  std::mutex accounts_m_;
  std::mutex journal_m_;
  int balances_[4] = {};
  std::vector<int> journal_;
};
