// snag-tsv-suite
// expect: clean
// why: the localtime() and gmtime() calls, and the reads of the static struct tm they return, are both made under the same mutex
#include <ctime>
#include <latch>
#include <mutex>
#include <thread>

const std::time_t when = 1700000000;
std::mutex time_mutex;
std::latch start(2);
int local_hour = 0;
int utc_year = 0;

__attribute__((noinline)) void local_view() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(time_mutex);
  const std::tm* t = std::localtime(&when);
  local_hour = t->tm_hour;
}

__attribute__((noinline)) void utc_view() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(time_mutex);
  const std::tm* t = std::gmtime(&when);
  utc_year = t->tm_year;
}

int main() {
  std::thread l(local_view), u(utc_view);
  l.join();
  u.join();
  return 0;
}
