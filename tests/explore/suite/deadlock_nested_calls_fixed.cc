// explore suite: deadlock_nested_calls, fixed twin.
// report() reads the counter under the stats mutex and releases it before calling
// write_log(), so the only nesting left is log mutex, then stats mutex.
// explore-budget: 2000
#include <mutex>
#include <string>
#include <thread>

std::mutex log_mutex;
std::mutex stats_mutex;
std::string log_text;  // guarded by log_mutex
int messages = 0;      // guarded by stats_mutex

void count_message() {
  std::lock_guard<std::mutex> g(stats_mutex);
  ++messages;
}

void write_log(const char* line, bool counted) {
  std::lock_guard<std::mutex> g(log_mutex);
  log_text += line;
  if (counted)
    count_message();
}

void report() {
  bool busy;
  {
    std::lock_guard<std::mutex> g(stats_mutex);
    busy = messages > 0;
  }
  write_log(busy ? "busy\n" : "idle\n", false);
}

int main() {
  std::thread a([] { write_log("started\n", true); });
  std::thread b(report);
  a.join();
  b.join();
  return 0;
}
