// snag-check-suite
// expect: race
// why: the constructor starts the worker thread and only then sets interval_ms_, which the worker reads first thing
#include <thread>

class Heartbeat {
 public:
  explicit Heartbeat(int interval_ms) : worker_([this] { run(); }) {
    interval_ms_ = interval_ms;  // RACE:first
  }
  int stop() {
    worker_.join();
    return beats_;
  }

 private:
  void run() {
    int period = interval_ms_;  // RACE:second
    int n = 0;
    for (int i = 0; i < 3; ++i) n += period > 0 ? 1 : 0;
    beats_ = n;
  }

  std::thread worker_;
  int interval_ms_;
  int beats_;
};

int main() {
  Heartbeat* hb = new Heartbeat(100);
  int beats = hb->stop();
  delete hb;
  return beats <= 3 ? 0 : 1;
}
