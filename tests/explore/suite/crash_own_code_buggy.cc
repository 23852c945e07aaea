// explore suite: crash_own_code, buggy twin.
// main sets the plain config pointer only after starting the thread that reads it, so when
// the thread runs first it dereferences null in its own code (no library call at the
// faulting line): the crash must be reported at that line, not at the last call before it.
// explore-budget: 2000
#include <thread>

struct Config {
  int workers;
};

Config settings{4};
Config* current = nullptr;  // plain pointer, set by main
int seen = 0;

void read_config() {
  seen = current->workers;  // BUG: crash
}

int main() {
  std::thread t(read_config);
  current = &settings;
  t.join();
  return 0;
}
