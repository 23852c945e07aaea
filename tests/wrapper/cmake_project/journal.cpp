#include "journal.h"

namespace journal {
namespace {

class Journal {
 public:
  void append(int who) {
    entries_[count_ % kCapacity] = who;  // an access in the shared library
    ++count_;
  }
  std::size_t size() const { return count_; }

 private:
  static constexpr std::size_t kCapacity = 256;
  int entries_[kCapacity] = {};
  std::size_t count_ = 0;
};

Journal the_journal;

}  // namespace

void append(int who) { the_journal.append(who); }
std::size_t size() { return the_journal.size(); }

}  // namespace journal
