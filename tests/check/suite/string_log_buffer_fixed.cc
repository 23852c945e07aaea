// snag-check-suite
// expect: clean
// why: Logger::write appends to the std::string buffer while holding the logger's mutex
#include <mutex>
#include <string>
#include <thread>

class Logger {
 public:
  Logger() { buffer_.reserve(256); }
  void write(const char* line) {
    std::lock_guard<std::mutex> lock(m_);
    buffer_ += line;
  }
  std::size_t size() const { return buffer_.size(); }

 private:
  std::mutex m_;
  std::string buffer_;
};

Logger logger;

int main() {
  std::thread a([] { logger.write("accepted connection\n"); });
  std::thread b([] { logger.write("closed connection\n"); });
  a.join();
  b.join();
  return logger.size() == 38 ? 0 : 1;
}
