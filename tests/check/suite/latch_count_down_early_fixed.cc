// snag-check-suite
// expect: clean
// why: each loader stores its result before it counts the std::latch down, so main's read after latch.wait() is ordered after the store
#include <latch>
#include <thread>

int sizes[2];

void load(std::latch& loaded, int index) {
  int size = (index + 1) * 512;
  sizes[index] = size;
  loaded.count_down();
}

int main() {
  std::latch loaded(2);
  std::thread a(load, std::ref(loaded), 0);
  std::thread b(load, std::ref(loaded), 1);
  loaded.wait();
  int first = sizes[0];
  a.join();
  b.join();
  return first == 512 ? 0 : 1;
}
