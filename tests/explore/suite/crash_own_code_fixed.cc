// explore suite: crash_own_code, fixed twin.
// main sets the config pointer before starting the thread that reads it.
// explore-budget: 2000
#include <thread>

struct Config {
  int workers;
};

Config settings{4};
Config* current = nullptr;  // plain pointer, set by main
int seen = 0;

void read_config() {
  seen = current->workers;
}

int main() {
  current = &settings;
  std::thread t(read_config);
  t.join();
  return 0;
}
