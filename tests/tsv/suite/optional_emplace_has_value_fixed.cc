// snag-tsv-suite
// expect: clean
// why: the waiter checks has_value() on the std::optional only after the worker's emplace() was handed over through a condition variable
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

std::optional<int> result;
std::mutex result_mutex;
std::condition_variable result_ready;
bool published = false;
bool early = false;

__attribute__((noinline)) void compute() {
  result.emplace(42);
  std::lock_guard<std::mutex> lock(result_mutex);
  published = true;
  result_ready.notify_one();
}

__attribute__((noinline)) void await_result() {
  std::unique_lock<std::mutex> lock(result_mutex);
  result_ready.wait(lock, [] { return published; });
  early = result.has_value();
}

int main() {
  std::thread c(compute), w(await_result);
  c.join();
  w.join();
  return 0;
}
