// snag-check-suite
// expect: clean
// why: paper 001 "Buffer Fixed": the bounded buffer is a monitor, every access to its std::vector holds the buffer's mutex
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

// A bounded buffer: put() drops the item when full, takeAll() empties it.
class BoundedBuffer {
 public:
  static constexpr std::size_t kCapacity = 4;
  BoundedBuffer() { items_.reserve(kCapacity); }

  [[gnu::noinline]] bool put(int x) {
    std::lock_guard<std::mutex> lock(sync_);
    if (items_.size() >= kCapacity) return false; else items_.push_back(x); return true;
  }

  [[gnu::noinline]] std::size_t takeAll() {
    std::lock_guard<std::mutex> lock(sync_);
    std::size_t n = items_.size(); items_.clear(); return n;
  }

 private:
  std::mutex sync_;
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
  return consumed == static_cast<std::size_t>(produced) ? 0 : 1;
}
