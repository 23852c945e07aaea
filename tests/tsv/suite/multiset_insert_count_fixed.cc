// snag-tsv-suite
// expect: clean
// why: the teller calls count() on the std::multiset only after the voter, done inserting, hands over through a condition variable
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
  votes.insert(3);
  std::lock_guard<std::mutex> lock(votes_mutex);
  done = true;
  voted.notify_one();
}

__attribute__((noinline)) void teller() {
  std::unique_lock<std::mutex> lock(votes_mutex);
  voted.wait(lock, [] { return done; });
  threes = votes.count(3);
}

int main() {
  std::thread v(voter), t(teller);
  v.join();
  t.join();
  return 0;
}
