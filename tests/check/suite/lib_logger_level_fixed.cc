// snag-check-suite
// expect: clean
// why: every Logger method, enabled() included, holds the mutex while it touches level_ or lines_
// entry: library
#include <mutex>
#include <string>
#include <vector>

class Logger {
 public:
  void set_level(int level) {
    std::lock_guard<std::mutex> lock(m_);
    level_ = level;
  }

  bool enabled(int level) const {
    std::lock_guard<std::mutex> lock(m_);
    return level >= level_;
  }

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
