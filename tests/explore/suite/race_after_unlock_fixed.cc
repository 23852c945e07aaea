// explore suite: race_after_unlock, fixed twin.
// The worker updates `hits` while it holds the lock main reads it under.
// explore-budget: 200
// explore-options: --with-race
#include <mutex>
#include <thread>

std::mutex lock;
int hits = 0;

void worker() {
  lock.lock();
  hits += 1;
  lock.unlock();
}

int main() {
  std::thread t(worker);
  int seen;
  {
    std::lock_guard<std::mutex> guard(lock);
    seen = hits;
  }
  t.join();
  return seen > 1;
}
