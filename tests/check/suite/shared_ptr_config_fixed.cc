// snag-check-suite
// expect: clean
// why: main reads the Config shared with the thread through a shared_ptr copy only after join(); sharing ownership orders nothing by itself
#include <memory>
#include <thread>

struct Config {
  int retries = 1;
  int timeout_ms = 100;
};

int main() {
  auto config = std::make_shared<Config>();
  std::thread tuner([config] {
    config->retries = 3;
  });
  tuner.join();
  int retries = config->retries;
  return retries == 3 ? 0 : 1;
}
