// snag-tsv-suite
// expect: clean
// why: Registry's add() and count() both hold the class's mutex around their use of the member std::vector
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Registry {
 public:
  Registry() { names_.reserve(8); }
  __attribute__((noinline)) void add(const char* name) {
    std::lock_guard<std::mutex> lock(mutex_);
    names_.push_back(name);
  }
  __attribute__((noinline)) std::size_t count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return names_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> names_;
};

Registry registry;
std::latch start(2);
std::size_t known = 0;

int main() {
  std::thread adder([] {
    start.arrive_and_wait();
    registry.add("disk");
  });
  std::thread counter([] {
    start.arrive_and_wait();
    known = registry.count();
  });
  adder.join();
  counter.join();
  return 0;
}
