// snag-check-suite
// expect: clean
// why: Inventory::restock calls the lock-free helper count_locked() while it holds the mutex, so the std::mutex is never taken twice
#include <mutex>
#include <thread>

class Inventory {
 public:
  int count() {
    std::lock_guard<std::mutex> lock(m_);
    return count_locked();
  }
  void restock(int n) {
    std::lock_guard<std::mutex> lock(m_);
    if (count_locked() < 10) items_ += n;
  }

 private:
  int count_locked() const { return items_; }  // caller holds m_
  std::mutex m_;
  int items_ = 4;
};

int main() {
  Inventory inv;
  std::thread t([&] { inv.restock(5); });
  t.join();
  return inv.count() == 9 ? 0 : 1;
}
