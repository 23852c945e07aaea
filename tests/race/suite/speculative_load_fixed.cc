// snag-race-suite
// expect: clean
// why: the worker asks for the level only when told to, and is told not to; at -O1 LLVM would load `level` before the branch and pick the result with a select, a load the program never makes, unless snag keeps it from speculating
#include <thread>

int level;  // main writes it while the worker runs

__attribute__((noinline)) int level_if(int wanted) {
  if (wanted)
    return level;
  return 0;
}

int main(int argc, char **) {
  int result = 0;
  std::thread worker([&] { result = level_if(argc > 5); });
  level = 3;
  worker.join();
  return result;
}
