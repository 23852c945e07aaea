// snag-tsv-suite
// expect: clean
// why: the program's setenv() and getenv() calls are both made under the same mutex
#include <cstdlib>
#include <latch>
#include <mutex>
#include <thread>

std::mutex env_mutex;
std::latch start(2);
bool have_path = false;

__attribute__((noinline)) void configure() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(env_mutex);
  setenv("SNAG_TSV_SUITE_MODE", "fast", 1);
}

__attribute__((noinline)) void inspect() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(env_mutex);
  have_path = std::getenv("PATH") != nullptr;
}

int main() {
  std::thread c(configure), i(inspect);
  c.join();
  i.join();
  return 0;
}
