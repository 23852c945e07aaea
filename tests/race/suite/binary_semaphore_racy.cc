// snag-race-suite
// expect: racy
// why: the producer releases the std::binary_semaphore BEFORE writing the message, so the consumer's read after acquire() races with it
#include <semaphore>
#include <thread>

std::binary_semaphore sem(0);
int message = 0;
int seen = 0;

__attribute__((noinline)) void producer(int v) {
  sem.release();
  message = v;  // RACE:first
}

__attribute__((noinline)) void consumer() {
  sem.acquire();
  seen = message;  // RACE:second
}

int main(int argc, char**) {
  std::thread c(consumer), p(producer, argc + 41);
  p.join();
  c.join();
  return 0;
}
