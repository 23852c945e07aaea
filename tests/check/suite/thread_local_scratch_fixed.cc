// snag-check-suite
// expect: clean
// why: the scratch variable is thread_local, so each thread calling checksum() writes its own copy
#include <thread>

thread_local int scratch;

int checksum(int v) { scratch = v * 31; return scratch ^ 0x5a; }

int results[2];

int main() {
  std::thread a([] { results[0] = checksum(3); });
  std::thread b([] { results[1] = checksum(4); });
  a.join();
  b.join();
  return results[0] == (93 ^ 0x5a) && results[1] == (124 ^ 0x5a) ? 0 : 1;
}
