// Two threads append to one std::vector without a lock: a reallocation in
// one thread frees the buffer the other is writing to.
#include <cstdio>
#include <thread>
#include <vector>

std::vector<int> results;

void produce(int first) {
  for (int i = first; i < first + 100; ++i) results.push_back(i);  // BUG: unsynchronized
}

int main() {
  std::thread a(produce, 0);
  std::thread b(produce, 1000);
  a.join();
  b.join();
  std::printf("%zu results\n", results.size());
}
