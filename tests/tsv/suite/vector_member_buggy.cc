// snag-tsv-suite
// expect: violation
// object: std::vector<std::string>
// why: a Registry's member std::vector is push_backed by add() in one thread while count() reads its size() in another; the class has no lock
#include <latch>
#include <string>
#include <thread>
#include <vector>

class Registry {
 public:
  Registry() { names_.reserve(8); }
  __attribute__((noinline)) void add(const char* name) {
    names_.push_back(name);  // TSV:first
  }
  __attribute__((noinline)) std::size_t count() const {
    return names_.size();  // TSV:second
  }

 private:
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
