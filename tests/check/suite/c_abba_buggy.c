// snag-check-suite
// expect: deadlock
// why: move_up() locks queue_a then queue_b while move_down() locks queue_b then queue_a: pthread lock-order inversion
#include <pthread.h>

struct queue {
  pthread_mutex_t lock;
  int len;
};

static struct queue queue_a = {PTHREAD_MUTEX_INITIALIZER, 5};
static struct queue queue_b = {PTHREAD_MUTEX_INITIALIZER, 5};

static void *move_up(void *arg) {
  (void)arg;
  pthread_mutex_lock(&queue_a.lock);  // DEADLOCK
  pthread_mutex_lock(&queue_b.lock);  // DEADLOCK
  queue_a.len--;
  queue_b.len++;
  pthread_mutex_unlock(&queue_b.lock);
  pthread_mutex_unlock(&queue_a.lock);
  return NULL;
}

static void *move_down(void *arg) {
  (void)arg;
  pthread_mutex_lock(&queue_b.lock);  // DEADLOCK
  pthread_mutex_lock(&queue_a.lock);  // DEADLOCK
  queue_b.len--;
  queue_a.len++;
  pthread_mutex_unlock(&queue_a.lock);
  pthread_mutex_unlock(&queue_b.lock);
  return NULL;
}

int main(void) {
  pthread_t up, down;
  pthread_create(&up, NULL, move_up, NULL);
  pthread_create(&down, NULL, move_down, NULL);
  pthread_join(up, NULL);
  pthread_join(down, NULL);
  return queue_a.len + queue_b.len == 10 ? 0 : 1;
}
