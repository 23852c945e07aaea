// snag-check-suite
// expect: clean
// why: interval_ms_ is set in the member initializer list before worker_ (declared after it) starts the thread that reads it
#include <thread>

class Heartbeat {
 public:
  explicit Heartbeat(int interval_ms) : interval_ms_(interval_ms), worker_([this] { run(); }) {}
  int stop() {
    worker_.join();
    return beats_;
  }

 private:
  void run() {
    int period = interval_ms_;
    int n = 0;
    for (int i = 0; i < 3; ++i) n += period > 0 ? 1 : 0;
    beats_ = n;
  }

  int interval_ms_;
  int beats_;
  std::thread worker_;
};

int main() {
  Heartbeat* hb = new Heartbeat(100);
  int beats = hb->stop();
  delete hb;
  return beats <= 3 ? 0 : 1;
}
