// An exception thrown in one thread and rethrown in another; stacks must be
// right again after the exception skipped function exits.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <thread>

int depth_marker;
void *volatile sink;  // keeps the allocation from being optimized away

__attribute__((noinline)) void thrower(int n) {
  if (n == 0) throw std::runtime_error("deep");
  thrower(n - 1);
}

__attribute__((noinline)) void after_catch() {
  sink = std::malloc(16); // MARK:after-catch
  depth_marker = sink != nullptr;
  std::free(sink);
}

int main() {
  std::exception_ptr error;
  std::thread t([&] {
    try {
      thrower(20);
    } catch (...) {
      error = std::current_exception();
    }
  });
  t.join();
  try {
    std::rethrow_exception(error);
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }
  try {
    thrower(10);
  } catch (...) {
  }
  after_catch(); // MARK:call-after-catch
  return 0;
}
