// snag-check-suite
// expect: race
// why: the worker fulfils the std::promise before it records its timing note, so main's read after future::get() is not ordered after the note
#include <future>
#include <thread>

long elapsed_us = 0;

void compute(std::promise<int>& result) {
  int v = 0;
  for (int i = 0; i < 10; ++i) v += i;
  result.set_value(v);
  elapsed_us = 17;  // RACE:first
}

int main() {
  std::promise<int> p;
  std::future<int> f = p.get_future();
  std::thread worker(compute, std::ref(p));
  int v = f.get();
  long took = elapsed_us;  // RACE:second
  worker.join();
  return v == 45 && took >= 0 ? 0 : 1;
}
