// snag-check-suite
// expect: race
// why: the function-local static registry is initialized safely, but its lookups_ counter is then bumped by two threads without a lock
#include <string>
#include <thread>

class Registry {
 public:
  int find(const std::string& name) {
    ++lookups_;  // RACE:first RACE:second
    return name == "http" ? 80 : name == "https" ? 443 : -1;
  }
  int lookups() const { return lookups_; }

 private:
  int lookups_ = 0;
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
