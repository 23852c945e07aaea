// snag-check-suite
// expect: deadlock
// why: Inventory::restock holds the non-recursive mutex and calls count(), which locks the same std::mutex again (self-deadlock)
#include <mutex>
#include <thread>

class Inventory {
 public:
  int count() {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    return items_;
  }
  void restock(int n) {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    if (count() < 10) items_ += n;
  }

 private:
  std::mutex m_;
  int items_ = 4;
};

int main() {
  Inventory inv;
  std::thread t([&] { inv.restock(5); });
  t.join();
  return inv.count() == 9 ? 0 : 1;
}
