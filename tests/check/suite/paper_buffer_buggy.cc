// snag-check-suite
// expect: race
// why: paper 001 "Buffer Broken": producer and consumer use a bounded buffer whose std::vector is not synchronized at all
#include <cstddef>
#include <thread>
#include <vector>

// A bounded buffer: put() drops the item when full, takeAll() empties it.
class BoundedBuffer {
 public:
  static constexpr std::size_t kCapacity = 4;
  BoundedBuffer() { items_.reserve(kCapacity); }

  [[gnu::noinline]] bool put(int x) {
    if (items_.size() >= kCapacity) return false; else items_.push_back(x); return true;  // RACE:first
  }

  [[gnu::noinline]] std::size_t takeAll() {
    std::size_t n = items_.size(); items_.clear(); return n;  // RACE:second
  }

 private:
  std::vector<int> items_;
};

BoundedBuffer buffer;

int main() {
  int produced = 0;
  std::size_t consumed = 0;
  std::thread producer([&] {
    for (int i = 0; i < 8; ++i) produced += buffer.put(i);
  });
  std::thread consumer([&] {
    for (int i = 0; i < 8; ++i) consumed += buffer.takeAll();
  });
  producer.join();
  consumer.join();
  consumed += buffer.takeAll();
  return consumed <= static_cast<std::size_t>(produced) ? 0 : 1;  // racy: items may be lost
}
