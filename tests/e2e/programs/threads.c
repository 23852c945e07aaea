/* Thread life cycle: create, join, detach, pthread_exit. */
#include <pthread.h>
#include <stdio.h>

static int shared_value;

static void *worker(void *arg) {
  shared_value = (int)(long)arg; /* MARK:worker-write */
  return NULL;
}

static void *exits_early(void *arg) {
  (void)arg;
  pthread_exit(NULL);
  return NULL;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, NULL, worker, (void *)1L); /* MARK:create-a */
  pthread_join(a, NULL);                         /* MARK:join-a */
  pthread_create(&b, NULL, exits_early, NULL);
  pthread_join(b, NULL);
  pthread_create(&c, NULL, worker, (void *)3L);
  pthread_join(c, NULL);
  printf("value %d\n", shared_value);
  return 0;
}
