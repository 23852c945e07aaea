// A target of its own, joined before it reads: nothing to report.
#include <thread>

int total = 0;

int main() {
  std::thread t([] { total = 1; });
  t.join();
  return total;
}
