// snag-check-suite
// expect: race
// why: the hand-rolled lazy singleton tests and sets the global pointer with no synchronization, so two first callers race on it
#include <string>
#include <thread>

class Logger {
 public:
  void log(const std::string& line) { (void)line; }
};

Logger* g_logger = nullptr;

Logger& logger() {
  return g_logger != nullptr ? *g_logger : *(g_logger = new Logger());  // RACE:first RACE:second
}

int main() {
  Logger* seen[2] = {};
  std::thread a([&] { seen[0] = &logger(); });
  std::thread b([&] { seen[1] = &logger(); });
  a.join();
  b.join();
  seen[0]->log("started");
  return 0;
}
