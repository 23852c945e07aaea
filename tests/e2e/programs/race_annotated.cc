// Two races: one on a counter the program declares benign with
// ThreadSanitizer's annotation, one on `other`, which is reported (or
// suppressed with a suppressions file naming bump_other).
#include <thread>

extern "C" void AnnotateBenignRaceSized(const char *file, int line, const volatile void *addr,
                                        long size, const char *description);

int statistics;  // approximate on purpose
int other;

__attribute__((noinline)) void bump_statistics() { statistics++; }
__attribute__((noinline)) void bump_other() {
  other++; // MARK:other
}

int main() {
  AnnotateBenignRaceSized(__FILE__, __LINE__, &statistics, sizeof statistics, "approximate");
  std::thread a([] { bump_statistics(); bump_other(); });
  std::thread b([] { bump_statistics(); bump_other(); });
  a.join();
  b.join();
  return 0;
}
