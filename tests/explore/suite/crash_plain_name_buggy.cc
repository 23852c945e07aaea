// explore suite: crash_plain_name, buggy twin.
// main sets the plain pointer greeting only after starting the thread that measures it, so
// when the thread runs first (main preempted right after creating it) strlen gets a null
// pointer and the program crashes.
// explore-budget: 2000
#include <cstddef>
#include <cstring>
#include <thread>

const char* greeting = nullptr;  // plain pointer, set by main
std::size_t length = 0;

void measure() {
  length = std::strlen(greeting);  // BUG: crash
}

int main() {
  std::thread t(measure);
  greeting = "hello";
  t.join();
  return 0;
}
