// snag-tsv-suite
// expect: violation
// object: std::stack<int>
// why: the reader calls top() on a std::stack before the condition-variable wait, while the writer push()es onto it
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
  undo.push(2);  // TSV:first
  std::lock_guard<std::mutex> lock(undo_mutex);
  pushed = true;
  undo_changed.notify_one();
}

__attribute__((noinline)) void show() {
  last_action = undo.top();  // TSV:second
  std::unique_lock<std::mutex> lock(undo_mutex);
  undo_changed.wait(lock, [] { return pushed; });
}

int main() {
  undo.push(1);
  std::thread e(edit), s(show);
  e.join();
  s.join();
  return 0;
}
