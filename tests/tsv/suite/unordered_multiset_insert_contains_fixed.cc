// snag-tsv-suite
// expect: clean
// why: the std::unordered_multiset's insert() and contains() are both made under the same mutex
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>

std::unordered_multiset<std::string> tags;
std::mutex tags_mutex;
std::latch start(2);
bool tagged_urgent = false;

__attribute__((noinline)) void tagger() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(tags_mutex);
  tags.insert("urgent");
}

__attribute__((noinline)) void filter() {
  start.arrive_and_wait();
  std::lock_guard<std::mutex> lock(tags_mutex);
  tagged_urgent = tags.contains("urgent");
}

int main() {
  tags.reserve(64);
  tags.insert("new");
  std::thread t(tagger), f(filter);
  t.join();
  f.join();
  return 0;
}
