// snag-check-suite
// expect: clean
// why: the lazy singleton is a function-local static, whose initialization C++ makes thread-safe
#include <string>
#include <thread>

class Logger {
 public:
  void log(const std::string& line) { (void)line; }
};

Logger& logger() {
  static Logger instance;
  return instance;
}

int main() {
  Logger* seen[2] = {};
  std::thread a([&] { seen[0] = &logger(); });
  std::thread b([&] { seen[1] = &logger(); });
  a.join();
  b.join();
  seen[0]->log("started");
  return seen[0] == seen[1] ? 0 : 1;
}
