// snag-tsv-suite
// expect: violation
// object: std::priority_queue<int>
// why: main reads top() of a std::priority_queue while the worker it started pop()s from it; main joins only afterwards
#include <queue>
#include <thread>

std::priority_queue<int> ready_tasks;
int best = 0;

__attribute__((noinline)) void run_one() {
  ready_tasks.pop();  // TSV:first
}

int main() {
  for (int p = 1; p <= 8; ++p)
    ready_tasks.push(p);
  std::thread worker(run_one);
  best = ready_tasks.top();  // TSV:second
  worker.join();
  return 0;
}
