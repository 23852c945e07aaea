// snag-race-suite
// expect: racy
// why: fwrite reads the message buffer inside libc while another thread edits it
#include <cstdio>
#include <thread>

char message[32] = "status: ok\n";

__attribute__((noinline)) void log_it(std::FILE *sink) {
  std::fwrite(message, 1, 11, sink);  // RACE:first
}

__attribute__((noinline)) void edit() {
  message[8] = 'O';  // RACE:second
}

int main() {
  std::FILE *sink = std::fopen("/dev/null", "w");
  if (!sink) return 1;
  std::thread a(log_it, sink), b(edit);
  a.join();
  b.join();
  std::fclose(sink);
  return 0;
}
