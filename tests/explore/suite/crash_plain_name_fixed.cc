// explore suite: crash_plain_name, fixed twin.
// main sets greeting before starting the thread that measures it.
// explore-budget: 2000
#include <cstddef>
#include <cstring>
#include <thread>

const char* greeting = nullptr;  // plain pointer, set by main
std::size_t length = 0;

void measure() {
  length = std::strlen(greeting);
}

int main() {
  greeting = "hello";
  std::thread t(measure);
  t.join();
  return 0;
}
