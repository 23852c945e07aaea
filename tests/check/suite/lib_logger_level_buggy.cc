// snag-check-suite
// expect: race
// why: Logger::enabled reads level_ without the mutex that set_level holds while writing it (found by calling the two methods concurrently)
// entry: library
#include <mutex>
#include <string>
#include <vector>

class Logger {
 public:
  void set_level(int level) {
    std::lock_guard<std::mutex> lock(m_);
    level_ = level;  // RACE:first
  }

  bool enabled(int level) const { return level >= level_; }  // RACE:second

  void log(int level, const std::string& message) {
    std::lock_guard<std::mutex> lock(m_);
    if (level >= level_) lines_.push_back(message);
  }

  std::size_t lines() const {
    std::lock_guard<std::mutex> lock(m_);
    return lines_.size();
  }

 private:
  mutable std::mutex m_;
  int level_ = 0;
  std::vector<std::string> lines_;
};
