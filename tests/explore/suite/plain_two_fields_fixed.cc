// explore suite: plain_two_fields, fixed twin.
// The observer reads width and height under the same mutex the resizer holds while it
// writes them.
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
  std::lock_guard<std::mutex> g(shape_mutex);
  int w = width;
  int h = height;
  assert(w == h);
}

int main() {
  std::thread a(resize);
  std::thread b(observe);
  a.join();
  b.join();
  return 0;
}
