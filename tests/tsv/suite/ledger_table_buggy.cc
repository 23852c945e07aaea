// snag-tsv-suite
// expect: violation
// object: inventory::Ledger
// why: one thread calls Ledger::record() (a write in the user API table) while another calls Ledger::total() (a read), with no lock
// build-flags: -fsnag-api-table=user_api_table.txt
#include <latch>
#include <thread>

namespace inventory {

// Not thread-safe: callers must serialize writers against everyone else.
class Ledger {
 public:
  void record(int item, int quantity) {
    on_hand_[item] += quantity;
    ++entries_;
  }
  int total(int item) const { return on_hand_[item]; }
  int entries() const { return entries_; }
  void clear() {
    for (int& q : on_hand_)
      q = 0;
    entries_ = 0;
  }

 private:
  int on_hand_[16] = {};
  int entries_ = 0;
};

}  // namespace inventory

inventory::Ledger ledger;
std::latch start(2);
int bolts = 0;

__attribute__((noinline)) void receive_delivery() {
  start.arrive_and_wait();
  ledger.record(3, 50);  // TSV:first
}

__attribute__((noinline)) void stock_report() {
  start.arrive_and_wait();
  bolts = ledger.total(3);  // TSV:second
}

int main() {
  std::thread d(receive_delivery), r(stock_report);
  d.join();
  r.join();
  return 0;
}
