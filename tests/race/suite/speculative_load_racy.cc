// snag-race-suite
// expect: racy
// why: the worker is told to read the level, which main writes at the same time with nothing ordering the two (the twin of speculative_load_fixed: keeping the optimizer from hoisting loads must not hide a load the program makes)
#include <thread>

int level;  // main writes it while the worker runs

__attribute__((noinline)) int level_if(int wanted) {
  if (wanted)
    return level;  // RACE:first
  return 0;
}

int main(int argc, char **) {
  int result = 0;
  std::thread worker([&] { result = level_if(argc < 5); });
  level = 3;  // RACE:second
  worker.join();
  return result;
}
