// snag-race-suite
// expect: clean
// why: the memcpy() into and the memcpy() out of the shared buffer are both done under the same mutex
#include <cstring>
#include <mutex>
#include <thread>

char source[256];
char shared_buf[256];
char out[256];
std::mutex m;

__attribute__((noinline)) void writer(const char* src) {
  std::lock_guard<std::mutex> g(m);
  std::memcpy(shared_buf, src, sizeof shared_buf);
}

__attribute__((noinline)) void reader() {
  std::lock_guard<std::mutex> g(m);
  std::memcpy(out, shared_buf, sizeof out);
}

int main(int argc, char**) {
  std::memset(source, 'a' + argc, sizeof source);
  std::thread w(writer, source), r(reader);
  w.join();
  r.join();
  return out[0] == out[255] ? 0 : 1;
}
