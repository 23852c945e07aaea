// snag-check-suite
// expect: race
// why: set_timeout() writes under a std::shared_lock (reader lock), which does not exclude the concurrent reader in timeout()
#include <mutex>
#include <shared_mutex>
#include <thread>

class Settings {
 public:
  int timeout() const {
    std::shared_lock<std::shared_mutex> lock(m_);
    return timeout_ms_;  // RACE:second
  }
  void set_timeout(int ms) {
    std::shared_lock<std::shared_mutex> lock(m_);
    timeout_ms_ = ms;  // RACE:first
  }

 private:
  mutable std::shared_mutex m_;
  int timeout_ms_ = 1000;
};

Settings settings;

int main() {
  std::thread admin([] { settings.set_timeout(250); });
  int t = settings.timeout();
  admin.join();
  return t == 1000 || t == 250 ? 0 : 1;
}
