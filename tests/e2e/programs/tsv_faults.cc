// A thread-safety violation (two threads push_back to one vector at once)
// followed by a crash (argv[1] == "crash") or a hang ("hang"): what snag tsv
// caught before must still be reported.
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <latch>
#include <thread>
#include <vector>

std::vector<int> shared;
std::latch start(2);

void add(int value) {
  start.arrive_and_wait();
  shared.push_back(value);  // MARK:push
}

int main(int argc, char **argv) {
  shared.reserve(16);
  std::thread a(add, 1), b(add, 2);
  a.join();
  b.join();
  if (argc > 1 && strcmp(argv[1], "crash") == 0) abort();
  if (argc > 1 && strcmp(argv[1], "hang") == 0)
    for (;;) pause();
  return 0;
}
