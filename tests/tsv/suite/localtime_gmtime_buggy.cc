// snag-tsv-suite
// expect: violation
// object: libc time buffers
// why: localtime() and gmtime() return a pointer to the same static struct tm, and two threads call them at the same time with no lock
#include <ctime>
#include <latch>
#include <thread>

const std::time_t when = 1700000000;
std::latch start(2);
int local_hour = 0;
int utc_year = 0;

__attribute__((noinline)) void local_view() {
  start.arrive_and_wait();
  const std::tm* t = std::localtime(&when);  // TSV:first
  local_hour = t->tm_hour;
}

__attribute__((noinline)) void utc_view() {
  start.arrive_and_wait();
  const std::tm* t = std::gmtime(&when);  // TSV:second
  utc_year = t->tm_year;
}

int main() {
  std::thread l(local_view), u(utc_view);
  l.join();
  u.join();
  return 0;
}
