#include "queue.h"

void queue_init(struct queue *q) {
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->not_empty, NULL);
  pthread_cond_init(&q->not_full, NULL);
  q->head = 0;
  q->count = 0;
}

void queue_push(struct queue *q, int item) {
  pthread_mutex_lock(&q->lock);
  while (q->count == QUEUE_CAPACITY) pthread_cond_wait(&q->not_full, &q->lock);
  q->items[(q->head + q->count) % QUEUE_CAPACITY] = item; /* MARK-QUEUE-WRITE */
  q->count++;
  pthread_cond_signal(&q->not_empty);
  pthread_mutex_unlock(&q->lock);
}

int queue_pop(struct queue *q) {
  pthread_mutex_lock(&q->lock);
  while (q->count == 0) pthread_cond_wait(&q->not_empty, &q->lock);
  int item = q->items[q->head];
  q->head = (q->head + 1) % QUEUE_CAPACITY;
  q->count--;
  pthread_cond_signal(&q->not_full);
  pthread_mutex_unlock(&q->lock);
  return item;
}
