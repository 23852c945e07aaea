/* A bounded queue of ints protected by a mutex and two condition variables. */
#ifndef QUEUE_H
#define QUEUE_H

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QUEUE_CAPACITY 4

struct queue {
  pthread_mutex_t lock;
  pthread_cond_t not_empty;
  pthread_cond_t not_full;
  int items[QUEUE_CAPACITY];
  int head;
  int count;
};

void queue_init(struct queue *q);
void queue_push(struct queue *q, int item);
int queue_pop(struct queue *q);

#ifdef __cplusplus
}
#endif

#endif
