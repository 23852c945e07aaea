// snag-tsv-suite
// expect: clean
// why: main reads the std::optional with value_or() only after joining the worker that reset()s it
#include <optional>
#include <thread>

std::optional<int> cached_port = 8080;
int port = 0;

__attribute__((noinline)) void invalidate() {
  cached_port.reset();
}

int main() {
  std::thread worker(invalidate);
  worker.join();
  port = cached_port.value_or(80);
  return 0;
}
