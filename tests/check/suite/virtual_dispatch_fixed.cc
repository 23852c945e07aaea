// snag-check-suite
// expect: clean
// why: IncrementTask::run and ResetTask::run, called through Task* on two threads, both hold pending_mutex while writing `pending`
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

std::mutex pending_mutex;
int pending = 5;

class Task {
 public:
  virtual ~Task() = default;
  virtual void run() = 0;
};

class IncrementTask : public Task {
 public:
  void run() override {
    std::lock_guard<std::mutex> lock(pending_mutex);
    ++pending;
  }
};

class ResetTask : public Task {
 public:
  void run() override {
    std::lock_guard<std::mutex> lock(pending_mutex);
    pending = 0;
  }
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
