// snag-race-suite
// expect: clean
// why: the worker is stopped through std::jthread's stop_token (request_stop / stop_requested are atomic); main reads the result after the implicit join
#include <stop_token>
#include <thread>

long iterations = -1;

__attribute__((noinline)) void spin(std::stop_token st) {
  long n = 0;
  while (!st.stop_requested()) {
    ++n;
    std::this_thread::yield();
  }
  iterations = n;
}

int main() {
  {
    std::jthread t(spin);
    t.request_stop();
  }  // jthread joins here
  return iterations >= 0 ? 0 : 1;
}
