// snag-race-suite
// expect: clean
// why: the edit is joined before fwrite reads the message
#include <cstdio>
#include <thread>

char message[32] = "status: ok\n";

__attribute__((noinline)) void log_it(std::FILE *sink) {
  std::fwrite(message, 1, 11, sink);
}

__attribute__((noinline)) void edit() {
  message[8] = 'O';
}

int main() {
  std::FILE *sink = std::fopen("/dev/null", "w");
  if (!sink) return 1;
  std::thread b(edit);
  b.join();
  std::thread a(log_it, sink);
  a.join();
  std::fclose(sink);
  return 0;
}
