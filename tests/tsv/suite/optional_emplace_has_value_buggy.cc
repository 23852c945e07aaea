// snag-tsv-suite
// expect: violation
// object: std::optional<int>
// why: the waiter polls has_value() on a std::optional before the condition-variable wait, while the worker emplace()s the result
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
  result.emplace(42);  // TSV:first
  std::lock_guard<std::mutex> lock(result_mutex);
  published = true;
  result_ready.notify_one();
}

__attribute__((noinline)) void await_result() {
  early = result.has_value();  // TSV:second
  std::unique_lock<std::mutex> lock(result_mutex);
  result_ready.wait(lock, [] { return published; });
}

int main() {
  std::thread c(compute), w(await_result);
  c.join();
  w.join();
  return 0;
}
