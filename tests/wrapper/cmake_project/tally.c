#include "tally.h"

void tally_init(struct tally *t) {
  t->sum = 0;
  t->count = 0;
}

void tally_add(struct tally *t, long value) {
  t->sum += value; /* an access in the static library */
  t->count += 1;
}

long tally_sum(const struct tally *t) { return t->sum; }
