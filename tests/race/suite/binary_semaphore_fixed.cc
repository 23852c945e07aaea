// snag-race-suite
// expect: clean
// why: the producer writes the message before releasing the std::binary_semaphore; the consumer reads it after acquire()
#include <semaphore>
#include <thread>

std::binary_semaphore sem(0);
int message = 0;
int seen = 0;

__attribute__((noinline)) void producer(int v) {
  message = v;
  sem.release();
}

__attribute__((noinline)) void consumer() {
  sem.acquire();
  seen = message;
}

int main(int argc, char**) {
  std::thread c(consumer), p(producer, argc + 41);
  p.join();
  c.join();
  return seen == argc + 41 ? 0 : 1;
}
