// explore suite: deadlock_nested_calls, buggy twin.
// write_log() holds the log mutex while it calls count_message(), which takes the stats
// mutex, and report() holds the stats mutex while it calls write_log(), which takes the log
// mutex, so when each thread has taken its outer lock before the other takes its inner one
// (one preemption) the two threads wait for each other.
// explore-budget: 2000
#include <mutex>
#include <string>
#include <thread>

std::mutex log_mutex;
std::mutex stats_mutex;
std::string log_text;  // guarded by log_mutex
int messages = 0;      // guarded by stats_mutex

void count_message() {
  std::lock_guard<std::mutex> g(stats_mutex);  // BUG: deadlock
  ++messages;
}

void write_log(const char* line, bool counted) {
  std::lock_guard<std::mutex> g(log_mutex);  // BUG: deadlock
  log_text += line;
  if (counted)
    count_message();
}

void report() {
  std::lock_guard<std::mutex> g(stats_mutex);  // BUG: deadlock
  write_log(messages > 0 ? "busy\n" : "idle\n", false);
}

int main() {
  std::thread a([] { write_log("started\n", true); });
  std::thread b(report);
  a.join();  // BUG: deadlock
  b.join();  // BUG: deadlock
  return 0;
}
