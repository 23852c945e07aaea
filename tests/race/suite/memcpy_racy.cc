// snag-race-suite
// expect: racy
// why: one thread memcpy()s into a shared buffer while another memcpy()s out of it, with no lock
#include <cstring>
#include <thread>

char source[256];
char shared_buf[256];
char out[256];

__attribute__((noinline)) void writer(const char* src) {
  std::memcpy(shared_buf, src, sizeof shared_buf);  // RACE:first
}

__attribute__((noinline)) void reader() {
  std::memcpy(out, shared_buf, sizeof out);  // RACE:second
}

int main(int argc, char**) {
  std::memset(source, 'a' + argc, sizeof source);
  std::thread w(writer, source), r(reader);
  w.join();
  r.join();
  return 0;
}
