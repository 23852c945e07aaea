// snag-check-suite
// expect: clean
// why: Ledger::post and Ledger::audit both lock accounts_m_ before journal_m_, so concurrent calls cannot form a cycle
// entry: library
#include <mutex>
#include <vector>

class Ledger {
 public:
  void post(int account, int amount) {
    std::lock_guard<std::mutex> accounts(accounts_m_);
    std::lock_guard<std::mutex> journal(journal_m_);
    balances_[account & 3] += amount;
    journal_.push_back(amount);
  }

  bool audit() {
    std::lock_guard<std::mutex> accounts(accounts_m_);
    std::lock_guard<std::mutex> journal(journal_m_);
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
