// snag-check-suite
// expect: clean
// why: the worker records its timing note before it fulfils the std::promise, and future::get() synchronizes with set_value()
#include <future>
#include <thread>

long elapsed_us = 0;

void compute(std::promise<int>& result) {
  int v = 0;
  for (int i = 0; i < 10; ++i) v += i;
  elapsed_us = 17;
  result.set_value(v);
}

int main() {
  std::promise<int> p;
  std::future<int> f = p.get_future();
  std::thread worker(compute, std::ref(p));
  int v = f.get();
  long took = elapsed_us;
  worker.join();
  return v == 45 && took == 17 ? 0 : 1;
}
