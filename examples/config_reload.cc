// A reader checks that the current configuration exists and then uses it,
// as two separate steps; a reloader drops the configuration in between.
// `snag learn` watches correct runs, `snag guard` stalls the reloader just
// before the drop until the reader is done (docs/guard.md).
//
//   config_reload late    correct: the reload comes after the reader is done
//   config_reload first   correct: the reload comes before the reader starts
//   config_reload early   the bug: the reload comes between check and use
//
// The window is widened the way paper 003's evaluation widens it: after its
// check the reader waits (at most 50 ms) for a reload notice it does not
// need, so `early` fails natively every time.
#include <pthread.h>
#include <time.h>

#include <cstdio>
#include <cstring>
#include <thread>

struct Config {
  int port = 8080;
};

Config storage;
Config *volatile current = &storage;  // BUG: checked and used without a lock

// A one-shot notice between the two threads: demo scaffolding, not part of
// the program's logic, so snag leaves it uninstrumented.
#define SCAFFOLDING __attribute__((disable_sanitizer_instrumentation, noinline))
struct Notice {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  bool posted = false;
  SCAFFOLDING void post() {
    pthread_mutex_lock(&m);
    posted = true;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
  }
  SCAFFOLDING void wait() {
    pthread_mutex_lock(&m);
    while (!posted) pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
  }
  SCAFFOLDING void wait_at_most_ms(long ms) {
    timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += ms * 1000000;
    until.tv_sec += until.tv_nsec / 1000000000;
    until.tv_nsec %= 1000000000;
    pthread_mutex_lock(&m);
    while (!posted && pthread_cond_timedwait(&cv, &m, &until) == 0) {
    }
    pthread_mutex_unlock(&m);
  }
};

Notice checked, reloaded, done;
int port_used = 0;

void reader(bool widen) {
  if (current != nullptr) {  // the check
    checked.post();
    if (widen) reloaded.wait_at_most_ms(50);
    Config *config = current;  // the use
    port_used = config ? config->port : -1;
  }
  done.post();
}

void reloader() {
  current = nullptr;  // drop the old configuration (a new one would follow)
  reloaded.post();
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "late";
  bool early = std::strcmp(mode, "early") == 0;
  if (std::strcmp(mode, "first") == 0) {
    std::thread t(reloader);
    t.join();
  }
  std::thread r(reader, early);
  if (early) checked.wait();  // reload right after the check
  else done.wait();           // reload once the reader is done
  if (std::strcmp(mode, "first") != 0) reloader();
  r.join();
  if (port_used == -1) {
    std::fprintf(stderr, "config_reload: BUG: the configuration was dropped between check and use\n");
    return 1;
  }
  std::printf("config_reload: the reader used port %d\n", port_used);
  return 0;
}
