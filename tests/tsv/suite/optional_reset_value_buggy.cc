// snag-tsv-suite
// expect: violation
// object: std::optional<int>
// why: main reads a std::optional with value_or() while the worker it started reset()s it; main joins only afterwards
#include <optional>
#include <thread>

std::optional<int> cached_port = 8080;
int port = 0;

__attribute__((noinline)) void invalidate() {
  cached_port.reset();  // TSV:first
}

int main() {
  std::thread worker(invalidate);
  port = cached_port.value_or(80);  // TSV:second
  worker.join();
  return 0;
}
