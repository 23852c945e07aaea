// snag-tsv-suite
// expect: clean
// why: the reader calls top() on the std::stack only after the writer, done with push(), signalled it through a condition variable
#include <condition_variable>
#include <mutex>
#include <stack>
#include <thread>

std::stack<int> undo;
std::mutex undo_mutex;
std::condition_variable undo_changed;
bool pushed = false;
int last_action = 0;

__attribute__((noinline)) void edit() {
  undo.push(2);
  std::lock_guard<std::mutex> lock(undo_mutex);
  pushed = true;
  undo_changed.notify_one();
}

__attribute__((noinline)) void show() {
  std::unique_lock<std::mutex> lock(undo_mutex);
  undo_changed.wait(lock, [] { return pushed; });
  last_action = undo.top();
}

int main() {
  undo.push(1);
  std::thread e(edit), s(show);
  e.join();
  s.join();
  return 0;
}
