// snag-race-suite
// expect: clean
// why: the request counter races on purpose (approximate statistics), and the ignore list given with -fsanitize-ignorelist names the one function that touches it, so its accesses are not instrumented, as under ThreadSanitizer
// build-flags: -fsanitize-ignorelist=ignorelist_statistics.txt
#include <thread>

long requests;  // approximate: updated without a lock on purpose

__attribute__((noinline)) void count_request() { requests++; }

int main() {
  std::thread a([] { for (int i = 0; i < 100; ++i) count_request(); });
  std::thread b([] { for (int i = 0; i < 100; ++i) count_request(); });
  a.join();
  b.join();
  return requests > 0 ? 0 : 1;
}
