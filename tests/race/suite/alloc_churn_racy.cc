// snag-race-suite
// expect: racy
// why: threads allocate, use and free only private blocks (fine), but all bump one plain global statistics counter
#include <cstdlib>
#include <cstring>
#include <thread>

long blocks_used = 0;

__attribute__((noinline)) void churn(int salt) {
  long done = 0;
  for (int i = 0; i < 200; ++i) {
    char* p = static_cast<char*>(std::malloc(64 + (i % 4) * 16));
    std::memset(p, salt + i, 64);
    p[63] = static_cast<char>(p[0] + 1);
    std::free(p);
    ++done;
  }
  blocks_used += done;  // RACE:first RACE:second
}

int main() {
  std::thread a(churn, 1), b(churn, 2), c(churn, 3);
  a.join();
  b.join();
  c.join();
  return 0;
}
