// snag-check-suite
// expect: race
// why: paper 001 "Timer Race": the periodic timer's tick callback writes `ticks` while main reads it, with no lock on either side
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

// Fires the callback at once and then every `period` until stop().
// (The paper's timer was endless; this one stops so the program ends.)
class PeriodicTimer {
 public:
  PeriodicTimer(std::chrono::milliseconds period, std::function<void()> tick)
      : period_(period), tick_(std::move(tick)), thread_([this] { run(); }) {}

  void stop() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stopped_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  void run() {
    for (;;) {
      tick_();
      std::unique_lock<std::mutex> lock(m_);
      if (cv_.wait_for(lock, period_, [this] { return stopped_; })) return;
    }
  }

  std::chrono::milliseconds period_;
  std::function<void()> tick_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stopped_ = false;
  std::thread thread_;
};

int ticks = 0;

int main() {
  PeriodicTimer timer(std::chrono::milliseconds(1), [] { ++ticks; });  // RACE:first
  int seen = ticks;  // RACE:second
  timer.stop();
  return seen >= 0 ? 0 : 1;
}
