// snag-race-suite
// expect: racy
// why: a second thread (not main) is responsible for joining the writer, but it reads the writer's result BEFORE joining it
#include <thread>

int result = 0;
int seen = 0;

__attribute__((noinline)) void writer(int v) {
  result = v;  // RACE:first
}

__attribute__((noinline)) void joiner(std::thread* w) {
  seen = result;  // RACE:second
  w->join();
}

int main(int argc, char**) {
  std::thread w(writer, argc + 4);
  std::thread j(joiner, &w);
  j.join();
  return 0;
}
