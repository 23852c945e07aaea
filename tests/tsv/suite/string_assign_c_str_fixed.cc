// snag-tsv-suite
// expect: clean
// why: main reads the std::string through c_str() only after future::get() of the task that assigns it
#include <cstring>
#include <future>
#include <string>

std::string mode = "fast";
bool is_fast = false;

__attribute__((noinline)) void switch_mode() {
  mode = "slow";
}

int main() {
  std::future<void> switched = std::async(std::launch::async, switch_mode);
  switched.get();
  is_fast = std::strcmp(mode.c_str(), "fast") == 0;
  return 0;
}
