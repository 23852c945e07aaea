// snag-check-suite
// expect: deadlock
// why: rotate_logs() takes files_mutex then index_mutex while reindex() takes index_mutex then files_mutex: lock-order inversion
#include <mutex>
#include <thread>

std::mutex files_mutex;
std::mutex index_mutex;
int open_files = 3;
int index_entries = 10;

void rotate_logs() {
  std::lock_guard<std::mutex> files(files_mutex);  // DEADLOCK
  std::lock_guard<std::mutex> index(index_mutex);  // DEADLOCK
  open_files = 1;
  index_entries = 0;
}

void reindex() {
  std::lock_guard<std::mutex> index(index_mutex);  // DEADLOCK
  std::lock_guard<std::mutex> files(files_mutex);  // DEADLOCK
  index_entries = open_files * 4;
}

int main() {
  std::thread a(rotate_logs);
  std::thread b(reindex);
  a.join();
  b.join();
  return 0;
}
