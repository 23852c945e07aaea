// explore suite: race_after_unlock, buggy twin.
// The worker updates `hits` after releasing the lock that main holds while it
// reads it: a data race, reported by the race engine running inside every
// schedule (--with-race), whatever order the two threads run in.
// explore-budget: 200
// explore-options: --with-race
#include <mutex>
#include <thread>

std::mutex lock;
int hits = 0;

void worker() {
  lock.lock();
  lock.unlock();
  hits += 1;  // BUG: data-race
}

int main() {
  std::thread t(worker);
  int seen;
  {
    std::lock_guard<std::mutex> guard(lock);
    seen = hits;  // BUG: data-race
  }
  t.join();
  return seen > 1;
}
