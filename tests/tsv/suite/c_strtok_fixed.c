// snag-tsv-suite
// expect: clean
// why: the threads tokenize with strtok_r(), whose position lives in a local variable of each caller
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <string.h>

static pthread_barrier_t start;
static char header_line[] = "Host: example Accept: text";
static char query_line[] = "name=a size=3 page=1";
int word_counts[2];

__attribute__((noinline)) static int count_words(char *line) {
  int words = 0;
  char *save = NULL;
  for (char *w = strtok_r(line, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save))
    ++words;
  return words;
}

static void *parse_header(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  word_counts[0] = count_words(header_line);
  return NULL;
}

static void *parse_query(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  word_counts[1] = count_words(query_line);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, parse_header, NULL);
  pthread_create(&b, NULL, parse_query, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
