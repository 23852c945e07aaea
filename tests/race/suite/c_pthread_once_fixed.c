// snag-race-suite
// expect: clean
// why: both threads call pthread_once before reading the table, so the single initialization happens-before both reads
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int table[4];
int seen[2];

__attribute__((noinline)) static void init_table(void) {
  for (int i = 0; i < 4; ++i) table[i] = i * i;
}

__attribute__((noinline)) static void* user(void* arg) {
  (void)arg;
  pthread_once(&once, init_table);
  seen[0] = table[3];
  return NULL;
}

__attribute__((noinline)) static void* sloppy_user(void* arg) {
  (void)arg;
  pthread_once(&once, init_table);
  seen[1] = table[3];
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, user, NULL);
  pthread_create(&b, NULL, sloppy_user, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return seen[0] == 9 && seen[1] == 9 ? 0 : 1;
}
