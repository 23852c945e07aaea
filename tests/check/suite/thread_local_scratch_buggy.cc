// snag-check-suite
// expect: race
// why: the scratch variable meant to be per thread is a plain global, so two threads calling checksum() write it at once
#include <thread>

int scratch;

int checksum(int v) { scratch = v * 31; return scratch ^ 0x5a; }  // RACE:first RACE:second

int results[2];

int main() {
  std::thread a([] { results[0] = checksum(3); });
  std::thread b([] { results[1] = checksum(4); });
  a.join();
  b.join();
  return 0;
}
