// snag-check-suite
// expect: clean
// why: the function-local static registry is initialized safely and its lookups_ counter is a std::atomic
#include <atomic>
#include <string>
#include <thread>

class Registry {
 public:
  int find(const std::string& name) {
    ++lookups_;
    return name == "http" ? 80 : name == "https" ? 443 : -1;
  }
  int lookups() const { return lookups_; }

 private:
  std::atomic<int> lookups_{0};
};

Registry& registry() {
  static Registry instance;  // C++11 guarantees a thread-safe initialization
  return instance;
}

int main() {
  int ports[2] = {};
  std::thread a([&] { ports[0] = registry().find("http"); });
  std::thread b([&] { ports[1] = registry().find("https"); });
  a.join();
  b.join();
  return ports[0] == 80 && ports[1] == 443 && registry().lookups() == 2 ? 0 : 1;
}
