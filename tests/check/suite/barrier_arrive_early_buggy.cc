// snag-check-suite
// expect: race
// why: the worker arrives at the std::barrier before it writes its partial result, so main's read after arrive_and_wait() races with it
#include <barrier>
#include <thread>

int partial[2];

int main() {
  std::barrier<> phase_done(2);
  std::thread worker([&] {
    int sum = 0;
    for (int i = 1; i <= 4; ++i) sum += i;
    auto token = phase_done.arrive();
    (void)token;
    partial[1] = sum;  // RACE:first
  });
  partial[0] = 1;
  phase_done.arrive_and_wait();
  int total = partial[0] + partial[1];  // RACE:second
  worker.join();
  return total == 1 || total == 11 ? 0 : 1;
}
