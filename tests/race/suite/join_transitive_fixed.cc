// snag-race-suite
// expect: clean
// why: a second thread (not main) joins the writer and only then reads its result; main joins that second thread
#include <thread>

int result = 0;
int seen = 0;

__attribute__((noinline)) void writer(int v) {
  result = v;
}

__attribute__((noinline)) void joiner(std::thread* w) {
  w->join();
  seen = result;
}

int main(int argc, char**) {
  std::thread w(writer, argc + 4);
  std::thread j(joiner, &w);
  j.join();
  return seen == argc + 4 ? 0 : 1;
}
