// snag-check-suite
// expect: clean
// why: the worker writes its partial result before it arrives at the std::barrier that main waits on, so the read is ordered after it
#include <barrier>
#include <thread>

int partial[2];

int main() {
  std::barrier<> phase_done(2);
  std::thread worker([&] {
    int sum = 0;
    for (int i = 1; i <= 4; ++i) sum += i;
    partial[1] = sum;
    auto token = phase_done.arrive();
    (void)token;
  });
  partial[0] = 1;
  phase_done.arrive_and_wait();
  int total = partial[0] + partial[1];
  worker.join();
  return total == 11 ? 0 : 1;
}
