// snag-race-suite
// expect: racy
// why: one thread appends to a std::string while another reads its length, with no lock
#include <string>
#include <thread>

std::string log_text;
std::size_t seen_len = 0;

__attribute__((noinline)) void writer() {
  for (int i = 0; i < 100; ++i)
    log_text += "entry;";  // RACE:first
}

__attribute__((noinline)) void reader() {
  seen_len = log_text.size();  // RACE:second
}

int main() {
  std::thread w(writer), r(reader);
  w.join();
  r.join();
  return log_text.size() == 600 ? 0 : 1;
}
