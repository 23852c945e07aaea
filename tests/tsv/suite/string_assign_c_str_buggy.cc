// snag-tsv-suite
// expect: violation
// object: std::string
// why: a std::async task assigns a new value to a std::string while main reads it through c_str() before waiting on the task's future
#include <cstring>
#include <future>
#include <string>

std::string mode = "fast";
bool is_fast = false;

__attribute__((noinline)) void switch_mode() {
  mode = "slow";  // TSV:first
}

int main() {
  std::future<void> switched = std::async(std::launch::async, switch_mode);
  is_fast = std::strcmp(mode.c_str(), "fast") == 0;  // TSV:second
  switched.get();
  return 0;
}
