// snag-tsv-suite
// expect: clean
// why: the calls of the annotated struct symtab's functions (symtab_set a write, symtab_get a read) are both made under the same pthread mutex
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#if __has_include(<snag/annotations.h>)
#include <snag/annotations.h>
#endif
#ifndef SNAG_THREAD_UNSAFE_BEGIN
#define SNAG_THREAD_UNSAFE_BEGIN(obj, is_write, name) ((void)(obj))
#define SNAG_THREAD_UNSAFE_END(obj) ((void)(obj))
#endif

// A fixed-size symbol table; not thread-safe.
struct symtab {
  char names[8][16];
  int values[8];
  int count;
};

static void symtab_set(struct symtab *t, const char *name, int value) {
  SNAG_THREAD_UNSAFE_BEGIN(t, 1, "symtab");
  int i = 0;
  while (i < t->count && strcmp(t->names[i], name) != 0)
    ++i;
  if (i == t->count && t->count < 8) {
    strncpy(t->names[i], name, sizeof t->names[i] - 1);
    t->count = i + 1;
  }
  if (i < 8)
    t->values[i] = value;
  SNAG_THREAD_UNSAFE_END(t);
}

static int symtab_get(const struct symtab *t, const char *name) {
  SNAG_THREAD_UNSAFE_BEGIN(t, 0, "symtab");
  int value = -1;
  for (int i = 0; i < t->count && i < 8; ++i)
    if (strcmp(t->names[i], name) == 0)
      value = t->values[i];
  SNAG_THREAD_UNSAFE_END(t);
  return value;
}

static pthread_barrier_t start;
static pthread_mutex_t globals_lock = PTHREAD_MUTEX_INITIALIZER;
static struct symtab globals;
int looked_up;

static void *define_symbol(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  pthread_mutex_lock(&globals_lock);
  symtab_set(&globals, "limit", 10);
  pthread_mutex_unlock(&globals_lock);
  return NULL;
}

static void *use_symbol(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  pthread_mutex_lock(&globals_lock);
  looked_up = symtab_get(&globals, "base");
  pthread_mutex_unlock(&globals_lock);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  symtab_set(&globals, "base", 1);
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, define_symbol, NULL);
  pthread_create(&b, NULL, use_symbol, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
