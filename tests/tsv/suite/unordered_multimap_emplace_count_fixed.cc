// snag-tsv-suite
// expect: clean
// why: the builder emplace()s before and the analyzer calls count() after the same std::barrier phase, so the std::unordered_multimap calls are ordered
#include <barrier>
#include <thread>
#include <unordered_map>

std::unordered_multimap<int, int> edges;
std::barrier<> phase(2);
std::size_t out_degree = 0;

__attribute__((noinline)) void builder() {
  edges.emplace(1, 3);
  phase.arrive_and_wait();
}

__attribute__((noinline)) void analyzer() {
  phase.arrive_and_wait();
  out_degree = edges.count(1);
}

int main() {
  edges.reserve(64);
  edges.emplace(1, 2);
  std::thread b(builder), a(analyzer);
  b.join();
  a.join();
  return 0;
}
