/* Races on a counter, then crashes: with "segv" a null dereference, with
   "abort" a call to abort(). The crash must be in snag race's report next to
   the race, and the exit status must say the program crashed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int counter;
int *volatile nowhere;

static void *bump(void *arg) {
  counter++; /* MARK:race */
  return arg;
}

int main(int argc, char **argv) {
  pthread_t a, b;
  pthread_create(&a, NULL, bump, NULL);
  pthread_create(&b, NULL, bump, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  if (argc > 1 && strcmp(argv[1], "abort") == 0) abort(); /* MARK:abort */
  if (argc > 1 && strcmp(argv[1], "segv") == 0) *nowhere = counter; /* MARK:segv */
  return 0;
}
