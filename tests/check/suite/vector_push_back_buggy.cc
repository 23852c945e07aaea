// snag-check-suite
// expect: race
// why: the recorder thread's std::vector::push_back writes the vector's end pointer while main calls size() on it before join()
#include <thread>
#include <vector>

struct Event {
  int id;
  int payload;
};

std::vector<Event> journal;

void record(int n) {
  for (int i = 0; i < n; ++i) journal.push_back(Event{i, i * 7});  // RACE:first
}

int main() {
  journal.reserve(16);
  std::thread recorder(record, 4);
  bool backlog = journal.size() > 8;  // RACE:second
  recorder.join();
  return !backlog && journal.size() == 4 ? 0 : 1;
}
