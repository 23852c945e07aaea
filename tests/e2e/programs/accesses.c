/* Plain loads and stores of every size, memory intrinsics, and a heap block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

uint8_t g8;
uint16_t g16;
uint32_t g32;
uint32_t g32_input = 3;
uint64_t g64;
struct pair { uint64_t a, b; } gpair;
char buffer_a[64], buffer_b[64];

__attribute__((noinline)) void touch(volatile uint64_t *p) {
  *p = 7; /* MARK:touch-write */
}

int main(void) {
  g8 = 1;  /* MARK:write8 */
  g16 = 2; /* MARK:write16 */
  g32 = 3; /* MARK:write32 */
  g64 = 4; /* MARK:write64 */
  uint32_t sum = g32_input + 1; /* MARK:read32 */
  memcpy(buffer_a, buffer_b, sizeof buffer_a); /* MARK:memcpy */
  memset(buffer_b, 0, 40); /* MARK:memset */
  uint64_t *heap = malloc(3 * sizeof *heap); /* MARK:malloc */
  touch(heap); /* MARK:call-touch */
  free(heap); /* MARK:free */
  return (int)(sum + g8 + g16 + g64) - 11 + (int)buffer_a[0];
}
