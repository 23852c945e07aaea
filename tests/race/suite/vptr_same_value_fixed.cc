// snag-race-suite
// expect: clean
// why: a derived class's destructor stores the vtable pointer the object already has while the other thread still calls a virtual method through it; the memory does not change, and the base destructor, which does change it, waits until the caller is done
#include <condition_variable>
#include <mutex>
#include <thread>

struct Job {
  virtual ~Job() {}
  virtual int cost() { return 1; }
  void finished() {
    std::lock_guard<std::mutex> hold(lock);
    done = true;
    wake.notify_one();
  }
  std::mutex lock;
  std::condition_variable wake;
  bool done = false;
};

struct CopyJob : Job {
  int cost() override { return 2; }
  ~CopyJob() override {
    std::unique_lock<std::mutex> hold(lock);
    wake.wait(hold, [this] { return done; });
  }
};

Job *job = new CopyJob;

int main() {
  int total = 0;
  std::thread caller([&] {
    total = job->cost();
    job->finished();
  });
  std::thread owner([] { delete job; });
  caller.join();
  owner.join();
  return total == 2 ? 0 : 1;
}
