// explore suite: plain_two_fields, buggy twin.
// The observer reads the plain fields width and height without the mutex the resizer holds,
// so when it is preempted between its two reads (or the resizer between its two writes, a
// preemption at a plain memory access) it sees a non-square shape.
// explore-budget: 5000
#include <cassert>
#include <mutex>
#include <thread>

std::mutex shape_mutex;
int width = 4;   // width == height must always hold
int height = 4;

void resize() {
  for (int side = 5; side <= 6; ++side) {
    std::lock_guard<std::mutex> g(shape_mutex);
    width = side;
    height = side;
  }
}

void observe() {
  int w = width;
  int h = height;
  assert(w == h);  // BUG: assertion-failure
}

int main() {
  std::thread a(resize);
  std::thread b(observe);
  a.join();
  b.join();
  return 0;
}
