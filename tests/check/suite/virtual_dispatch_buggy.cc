// snag-check-suite
// expect: race
// why: two tasks run through Task* on two threads; IncrementTask::run and ResetTask::run both write `pending` with no lock
#include <memory>
#include <thread>
#include <vector>

int pending = 5;

class Task {
 public:
  virtual ~Task() = default;
  virtual void run() = 0;
};

class IncrementTask : public Task {
 public:
  void run() override { ++pending; }  // RACE:first
};

class ResetTask : public Task {
 public:
  void run() override { pending = 0; }  // RACE:second
};

int main() {
  std::vector<std::unique_ptr<Task>> tasks;
  tasks.push_back(std::make_unique<IncrementTask>());
  tasks.push_back(std::make_unique<ResetTask>());
  std::vector<std::thread> workers;
  for (auto& task : tasks) workers.emplace_back([t = task.get()] { t->run(); });
  for (auto& w : workers) w.join();
  return pending == 0 || pending == 1 ? 0 : 1;
}
