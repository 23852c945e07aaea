// snag-race-suite
// expect: racy
// why: one thread push_backs into a std::vector while another thread queries its size, with no lock
#include <thread>
#include <vector>

std::vector<int> v;
std::size_t seen_size = 0;

__attribute__((noinline)) void appender() {
  for (int i = 0; i < 100; ++i)
    v.push_back(i);  // RACE:first
}

__attribute__((noinline)) void observer() {
  seen_size = v.size();  // RACE:second
}

int main() {
  std::thread a(appender), o(observer);
  a.join();
  o.join();
  return v.size() == 100 ? 0 : 1;
}
