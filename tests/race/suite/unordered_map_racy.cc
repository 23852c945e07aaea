// snag-race-suite
// expect: racy
// why: one thread inserts into a std::unordered_map while another reads its size(), with no lock
#include <thread>
#include <unordered_map>

std::unordered_map<int, int> table;
std::size_t seen_size = 0;

__attribute__((noinline)) void inserter() {
  for (int i = 0; i < 200; ++i)
    table[i] = i * i;  // RACE:first
}

__attribute__((noinline)) void counter() {
  seen_size = table.size();  // RACE:second
}

int main() {
  std::thread a(inserter), b(counter);
  a.join();
  b.join();
  return table.size() == 200 ? 0 : 1;
}
