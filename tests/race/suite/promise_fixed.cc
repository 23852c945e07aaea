// snag-race-suite
// expect: clean
// why: the thread writes a side-channel variable BEFORE promise::set_value; future::get() synchronizes with set_value
#include <future>
#include <thread>

int side = 0;

__attribute__((noinline)) void worker(std::promise<int>* p, int v) {
  side = v;
  p->set_value(v * 2);
}

int main(int argc, char**) {
  std::promise<int> p;
  std::future<int> f = p.get_future();
  std::thread t(worker, &p, argc + 3);  // main keeps the promise alive
  int r = f.get();
  int s = side;
  t.join();
  return r == (argc + 3) * 2 && s == argc + 3 ? 0 : 1;
}
