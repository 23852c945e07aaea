// snag-tsv-suite
// expect: violation
// object: libc environment
// why: one thread adds a variable to the environment with setenv() while another reads it with getenv(), with no lock
#include <cstdlib>
#include <latch>
#include <thread>

std::latch start(2);
bool have_path = false;

__attribute__((noinline)) void configure() {
  start.arrive_and_wait();
  setenv("SNAG_TSV_SUITE_MODE", "fast", 1);  // TSV:first
}

__attribute__((noinline)) void inspect() {
  start.arrive_and_wait();
  have_path = std::getenv("PATH") != nullptr;  // TSV:second
}

int main() {
  std::thread c(configure), i(inspect);
  c.join();
  i.join();
  return 0;
}
