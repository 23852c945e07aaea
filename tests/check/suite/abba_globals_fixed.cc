// snag-check-suite
// expect: clean
// why: both functions take files_mutex before index_mutex, so there is one global lock order and no cycle
#include <mutex>
#include <thread>

std::mutex files_mutex;
std::mutex index_mutex;
int open_files = 3;
int index_entries = 10;

void rotate_logs() {
  std::lock_guard<std::mutex> files(files_mutex);
  std::lock_guard<std::mutex> index(index_mutex);
  open_files = 1;
  index_entries = 0;
}

void reindex() {
  std::lock_guard<std::mutex> files(files_mutex);
  std::lock_guard<std::mutex> index(index_mutex);
  index_entries = open_files * 4;
}

int main() {
  std::thread a(rotate_logs);
  std::thread b(reindex);
  a.join();
  b.join();
  return 0;
}
