// snag-race-suite
// expect: clean
// why: the two threads do race on `total`, but the program compiles in __tsan_default_options() with report_bugs=0, as a ThreadSanitizer user silences reports; snag honours the keys it shares with ThreadSanitizer, so nothing is reported
#include <thread>

extern "C" const char *__tsan_default_options() { return "report_bugs=0:history_size=7"; }

int total;

int main() {
  std::thread a([] { total += 1; }), b([] { total += 2; });
  a.join();
  b.join();
  return 0;
}
