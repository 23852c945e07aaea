// snag-race-suite
// expect: clean
// why: main reads the variable written by the std::packaged_task only after future::get(), which synchronizes with the task's completion
#include <future>
#include <thread>

int side = 0;

__attribute__((noinline)) int task_body(int x) {
  side = x;
  return x + 1;
}

int main(int argc, char**) {
  std::packaged_task<int(int)> task(task_body);
  std::future<int> f = task.get_future();
  std::thread t(std::move(task), argc + 9);
  int r = f.get();
  int s = side;
  t.join();
  return r == argc + 10 && s == argc + 9 ? 0 : 1;
}
