// snag-check-suite
// expect: race
// why: two threads append to the logger's std::string buffer, and Logger::write takes no lock
#include <string>
#include <thread>

class Logger {
 public:
  Logger() { buffer_.reserve(256); }
  void write(const char* line) {
    buffer_ += line;  // RACE:first RACE:second
  }
  std::size_t size() const { return buffer_.size(); }

 private:
  std::string buffer_;
};

Logger logger;

int main() {
  std::thread a([] { logger.write("accepted connection\n"); });
  std::thread b([] { logger.write("closed connection\n"); });
  a.join();
  b.join();
  return logger.size() > 0 ? 0 : 1;
}
