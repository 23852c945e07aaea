/* The static library (C): a running total. */
#ifndef TALLY_H
#define TALLY_H

#ifdef __cplusplus
extern "C" {
#endif

struct tally {
  long sum;
  long count;
};

void tally_init(struct tally *t);
void tally_add(struct tally *t, long value);
long tally_sum(const struct tally *t);

#ifdef __cplusplus
}
#endif

#endif
