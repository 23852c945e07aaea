// snag-check-suite
// expect: race
// why: the thread's copy of the shared_ptr shares one Config object; the thread writes retries while main reads it before join()
#include <memory>
#include <thread>

struct Config {
  int retries = 1;
  int timeout_ms = 100;
};

int main() {
  auto config = std::make_shared<Config>();
  std::thread tuner([config] {
    config->retries = 3;  // RACE:first
  });
  int retries = config->retries;  // RACE:second
  tuner.join();
  return retries == 1 || retries == 3 ? 0 : 1;
}
