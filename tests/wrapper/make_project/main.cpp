#include <cstdio>
#include <thread>

#include "queue.h"

int main() {
  queue q;
  queue_init(&q);
  std::thread producer([&q] {
    for (int i = 1; i <= 10; ++i) queue_push(&q, i);
  });
  long sum = 0;
  for (int i = 0; i < 10; ++i) sum += queue_pop(&q);
  producer.join();
  std::printf("sum=%ld\n", sum);
  return 0;
}
