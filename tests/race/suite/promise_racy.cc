// snag-race-suite
// expect: racy
// why: the thread writes a side-channel variable AFTER promise::set_value (and touches nothing shared afterwards), so future::get() does not order it before main's read
#include <future>
#include <thread>

int side = 0;

__attribute__((noinline)) void worker(std::promise<int>* p, int v) {
  p->set_value(v * 2);
  side = v;  // RACE:first
}

int main(int argc, char**) {
  std::promise<int> p;
  std::future<int> f = p.get_future();
  std::thread t(worker, &p, argc + 3);  // main keeps the promise alive
  int r = f.get();
  int s = side;  // RACE:second
  t.join();
  return r == (argc + 3) * 2 && s >= 0 ? 0 : 1;
}
