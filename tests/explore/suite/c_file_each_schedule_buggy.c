// explore suite: c_file_each_schedule, buggy twin.
// main opens a file before its threads exist; two threads each write a record to it, but
// count the records outside the mutex with a separate read and write of a plain counter, so
// one count can be lost. Every schedule writes and reads the file at the same offsets.
// explore-budget: 2000
// explore-options: -j 1
// (one worker: schedules of two workers side by side would share this file; docs/explore.md)
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

static int fd;
static int records;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *add_record(void *arg) {
  pthread_mutex_lock(&lock);
  write(fd, arg, 4);
  int seen = records;
  pthread_mutex_unlock(&lock);
  pthread_mutex_lock(&lock);
  records = seen + 1;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  fd = open("explore_each_schedule.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644);
  assert(fd >= 0);
  pthread_t a, b;
  pthread_create(&a, 0, add_record, "AAAA");
  pthread_create(&b, 0, add_record, "BBBB");
  pthread_join(a, 0);
  pthread_join(b, 0);
  char back[16];
  lseek(fd, 0, SEEK_SET);
  ssize_t n = read(fd, back, sizeof back);
  assert(n == 8 && records == 2);  // BUG: assertion-failure
  return 0;
}
