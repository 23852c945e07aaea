// snag-tsv-suite
// expect: violation
// object: std::unordered_multimap<int, int>
// why: the std::barrier is placed before both calls instead of between them, so emplace() and count() on the std::unordered_multimap run concurrently
#include <barrier>
#include <thread>
#include <unordered_map>

std::unordered_multimap<int, int> edges;
std::barrier<> phase(2);
std::size_t out_degree = 0;

__attribute__((noinline)) void builder() {
  phase.arrive_and_wait();
  edges.emplace(1, 3);  // TSV:first
}

__attribute__((noinline)) void analyzer() {
  phase.arrive_and_wait();
  out_degree = edges.count(1);  // TSV:second
}

int main() {
  edges.reserve(64);
  edges.emplace(1, 2);
  std::thread b(builder), a(analyzer);
  b.join();
  a.join();
  return 0;
}
