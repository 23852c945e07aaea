// snag-tsv-suite
// expect: clean
// why: main reads top() of the std::priority_queue only after joining the worker that pop()s from it
#include <queue>
#include <thread>

std::priority_queue<int> ready_tasks;
int best = 0;

__attribute__((noinline)) void run_one() {
  ready_tasks.pop();
}

int main() {
  for (int p = 1; p <= 8; ++p)
    ready_tasks.push(p);
  std::thread worker(run_one);
  worker.join();
  best = ready_tasks.top();
  return 0;
}
