// snag-check-suite
// expect: clean
// why: set_timeout() writes under a std::unique_lock (writer lock) on the shared_mutex, which excludes the readers
#include <mutex>
#include <shared_mutex>
#include <thread>

class Settings {
 public:
  int timeout() const {
    std::shared_lock<std::shared_mutex> lock(m_);
    return timeout_ms_;
  }
  void set_timeout(int ms) {
    std::unique_lock<std::shared_mutex> lock(m_);
    timeout_ms_ = ms;
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
