// snag-tsv-suite
// expect: violation
// object: std::multiset<int>
// why: one thread inserts into a std::multiset while another calls count(), before the condition-variable hand-off that was meant to order them
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

std::multiset<int> votes = {1, 2, 3};
std::mutex votes_mutex;
std::condition_variable voted;
bool done = false;
std::size_t threes = 0;

__attribute__((noinline)) void voter() {
  votes.insert(3);  // TSV:first
  std::lock_guard<std::mutex> lock(votes_mutex);
  done = true;
  voted.notify_one();
}

__attribute__((noinline)) void teller() {
  threes = votes.count(3);  // TSV:second
  std::unique_lock<std::mutex> lock(votes_mutex);
  voted.wait(lock, [] { return done; });
}

int main() {
  std::thread v(voter), t(teller);
  v.join();
  t.join();
  return 0;
}
