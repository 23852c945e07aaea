// snag-check-suite
// expect: race
// why: each loader counts the std::latch down before storing its result, so main's read after latch.wait() is not ordered after the store
#include <latch>
#include <thread>

int sizes[2];

void load(std::latch& loaded, int index) {
  int size = (index + 1) * 512;
  loaded.count_down();
  sizes[index] = size;  // RACE:first
}

int main() {
  std::latch loaded(2);
  std::thread a(load, std::ref(loaded), 0);
  std::thread b(load, std::ref(loaded), 1);
  loaded.wait();
  int first = sizes[0];  // RACE:second
  a.join();
  b.join();
  return first == 0 || first == 512 ? 0 : 1;
}
