// snag-check-suite
// expect: race
// why: only with a command-line argument (verbose mode) does main bump `requests` without the lock the worker holds; the other branch locks
#include <mutex>
#include <thread>

std::mutex stats_mutex;
int requests = 0;

void serve() {
  std::lock_guard<std::mutex> lock(stats_mutex);
  ++requests;  // RACE:first
}

int main(int argc, char** argv) {
  (void)argv;
  std::thread worker(serve);
  if (argc > 1) {
    ++requests;  // RACE:second
  } else {
    std::lock_guard<std::mutex> lock(stats_mutex);
    ++requests;
  }
  worker.join();
  return requests == 2 ? 0 : 1;
}
