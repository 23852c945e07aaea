// snag-check-suite
// expect: clean
// why: main calls size() on the vector only after joining the thread that push_back()s into it
#include <thread>
#include <vector>

struct Event {
  int id;
  int payload;
};

std::vector<Event> journal;

void record(int n) {
  for (int i = 0; i < n; ++i) journal.push_back(Event{i, i * 7});
}

int main() {
  journal.reserve(16);
  std::thread recorder(record, 4);
  recorder.join();
  bool backlog = journal.size() > 8;
  return !backlog && journal.size() == 4 ? 0 : 1;
}
