// snag-tsv-suite
// expect: violation
// object: std::deque<int>
// why: the consumer reads the std::deque's size() before waiting for the producer's condition-variable signal, while the producer push_backs
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
  inbox.push_back(1);  // TSV:first
  std::lock_guard<std::mutex> lock(inbox_mutex);
  ready = true;
  inbox_ready.notify_one();
}

__attribute__((noinline)) void consumer() {
  pending = inbox.size();  // TSV:second
  std::unique_lock<std::mutex> lock(inbox_mutex);
  inbox_ready.wait(lock, [] { return ready; });
}

int main() {
  std::thread p(producer), c(consumer);
  p.join();
  c.join();
  return 0;
}
