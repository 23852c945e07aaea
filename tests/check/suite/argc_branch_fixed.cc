// snag-check-suite
// expect: clean
// why: both branches on argc take the lock the worker holds before they bump `requests`
#include <mutex>
#include <thread>

std::mutex stats_mutex;
int requests = 0;

void serve() {
  std::lock_guard<std::mutex> lock(stats_mutex);
  ++requests;
}

int main(int argc, char** argv) {
  (void)argv;
  std::thread worker(serve);
  if (argc > 1) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    ++requests;
  } else {
    std::lock_guard<std::mutex> lock(stats_mutex);
    ++requests;
  }
  worker.join();
  return requests == 2 ? 0 : 1;
}
