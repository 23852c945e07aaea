// snag-race-suite
// expect: clean
// why: inserts into and lookups in the shared std::unordered_map are all done under the same mutex
#include <mutex>
#include <thread>
#include <unordered_map>

std::unordered_map<int, int> table;
std::mutex m;
std::size_t seen_size = 0;
int seen_value = -1;

__attribute__((noinline)) void inserter() {
  for (int i = 0; i < 200; ++i) {
    std::lock_guard<std::mutex> g(m);
    table[i] = i * i;
  }
}

__attribute__((noinline)) void counter() {
  std::lock_guard<std::mutex> g(m);
  seen_size = table.size();
  auto it = table.find(7);
  if (it != table.end()) seen_value = it->second;
}

int main() {
  std::thread a(inserter), b(counter);
  a.join();
  b.join();
  return table.size() == 200 && (seen_value == -1 || seen_value == 49) ? 0 : 1;
}
