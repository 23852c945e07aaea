// snag-tsv-suite
// expect: clean
// why: the consumer reads the std::deque's size() only after the producer, done with push_back, signalled it through a condition variable
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

std::deque<int> inbox;
std::mutex inbox_mutex;
std::condition_variable inbox_ready;
bool ready = false;
std::size_t pending = 0;

__attribute__((noinline)) void producer() {
  inbox.push_back(1);
  std::lock_guard<std::mutex> lock(inbox_mutex);
  ready = true;
  inbox_ready.notify_one();
}

__attribute__((noinline)) void consumer() {
  std::unique_lock<std::mutex> lock(inbox_mutex);
  inbox_ready.wait(lock, [] { return ready; });
  pending = inbox.size();
}

int main() {
  std::thread p(producer), c(consumer);
  p.join();
  c.join();
  return 0;
}
