// snag-check-suite
// expect: deadlock
// why: Metrics::flush holds the non-recursive mutex and calls the public record(), which locks it again (self-deadlock)
// entry: library
#include <map>
#include <mutex>
#include <string>

class Metrics {
 public:
  void record(const std::string& name, long value) {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    values_[name] += value;
  }

  long flush() {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    long total = 0;
    for (const auto& kv : values_) total += kv.second;
    values_.clear();
    record("flushes", 1);
    return total;
  }

 private:
  std::mutex m_;
  std::map<std::string, long> values_;
};
