// The main thread starts a worker and only then publishes the settings the
// worker reads (the shape of Transmission bug #1818, paper 003). The worker
// first loads its own state (50 ms here, so that even a loaded machine
// does not show the bug), so in every ordinary run the settings are there
// when it looks: nothing makes it wait for them, and no test fails.
//
//   snag learn  --invariants F late_publish   correct runs teach the order
//   snag expose --invariants F late_publish   holds main before it publishes,
//                                             as a slow start would: the
//                                             worker reads no settings
#include <chrono>
#include <cstdio>
#include <thread>

struct Settings {
  int port = 8080;
};

Settings storage;
Settings *volatile settings = nullptr;
int port_used = 0;

void worker() {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // loading its own state
  Settings *s = settings;
  port_used = s ? s->port : -1;
}

int main() {
  std::thread t(worker);
  settings = &storage;  // BUG: published after the worker started
  t.join();
  if (port_used < 0) {
    std::fprintf(stderr, "late_publish: the worker read the settings before they were published\n");
    return 1;
  }
  std::printf("late_publish: the worker used port %d\n", port_used);
  return 0;
}
