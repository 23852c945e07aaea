// explore suite: c_steal_no_cas, fixed twin.
// steal() claims the top item with a compare-exchange on top and gives up when another
// thief got there first.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define SIZE 8
#define ITEMS 2

static atomic_int top;
static atomic_int bottom;
static atomic_int slots[SIZE];
static atomic_int taken[ITEMS];

static void push(int item) {  // owner only
  int b = atomic_load(&bottom);
  atomic_store(&slots[b % SIZE], item);
  atomic_store(&bottom, b + 1);
}

static int steal(void) {
  int t = atomic_load(&top);
  int b = atomic_load(&bottom);
  if (t >= b)
    return -1;
  int item = atomic_load(&slots[t % SIZE]);
  if (!atomic_compare_exchange_strong(&top, &t, t + 1))
    return -1;
  return item;
}

static void* thief(void* arg) {
  (void)arg;
  int item = steal();
  if (item >= 0) {
    int before = atomic_fetch_add(&taken[item], 1);
    assert(before == 0);
  }
  return NULL;
}

int main(void) {
  for (int i = 0; i < ITEMS; i++)
    push(i);
  pthread_t a, b;
  pthread_create(&a, NULL, thief, NULL);
  pthread_create(&b, NULL, thief, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
