// snag-check-suite
// expect: clean
// why: Metrics::flush updates its own counter through record_locked(), which expects the caller to hold the mutex and does not lock it
// entry: library
#include <map>
#include <mutex>
#include <string>

class Metrics {
 public:
  void record(const std::string& name, long value) {
    std::lock_guard<std::mutex> lock(m_);
    record_locked(name, value);
  }

  long flush() {
    std::lock_guard<std::mutex> lock(m_);
    long total = 0;
    for (const auto& kv : values_) total += kv.second;
    values_.clear();
    record_locked("flushes", 1);
    return total;
  }

 private:
  void record_locked(const std::string& name, long value) { values_[name] += value; }  // caller holds m_
  std::mutex m_;
  std::map<std::string, long> values_;
};
