// snag-race-suite
// expect: racy
// why: main reads a variable written by a std::packaged_task running on another thread before waiting on its future
#include <future>
#include <thread>

int side = 0;

__attribute__((noinline)) int task_body(int x) {
  side = x;  // RACE:first
  return x + 1;
}

int main(int argc, char**) {
  std::packaged_task<int(int)> task(task_body);
  std::future<int> f = task.get_future();
  std::thread t(std::move(task), argc + 9);
  int s = side;  // RACE:second
  int r = f.get();
  t.join();
  return r == argc + 10 && s >= 0 ? 0 : 1;
}
