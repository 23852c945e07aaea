// snag-race-suite
// expect: racy
// why: two threads store to the same unaligned 32-bit field through __sanitizer_unaligned_store32, with nothing ordering them
#include <stdint.h>

#include <thread>

extern "C" void __sanitizer_unaligned_store32(void *p, uint32_t value);
extern "C" uint32_t __sanitizer_unaligned_load32(const void *p);

alignas(8) unsigned char packet[16];

__attribute__((noinline)) void stamp(uint32_t v) {
  __sanitizer_unaligned_store32(packet + 3, v);  // RACE:first RACE:second
}

int main() {
  std::thread a(stamp, 1), b(stamp, 2);
  a.join();
  b.join();
  return __sanitizer_unaligned_load32(packet + 3) == 0 ? 1 : 0;
}
