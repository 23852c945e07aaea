// snag-check-suite
// expect: race
// why: Subject::subscribe appends to observers_ under the lock but notify() iterates observers_ without it
#include <mutex>
#include <thread>
#include <vector>

class Observer {
 public:
  void on_event(int e) { last_ = e; }
  int last_ = 0;
};

class Subject {
 public:
  Subject() { observers_.reserve(8); }
  void subscribe(Observer* o) {
    std::lock_guard<std::mutex> lock(m_);
    observers_.push_back(o);  // RACE:first
  }
  [[gnu::noinline]] void notify(int e) {
    for (Observer* o : observers_) o->on_event(e);  // RACE:second
  }

 private:
  std::mutex m_;
  std::vector<Observer*> observers_;
};

int main() {
  Subject subject;
  Observer early, late;
  subject.subscribe(&early);
  std::thread joiner([&] { subject.subscribe(&late); });
  for (int e = 1; e <= 100; ++e) subject.notify(e);
  joiner.join();
  return early.last_ == 100 ? 0 : 1;
}
