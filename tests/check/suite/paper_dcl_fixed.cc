// snag-check-suite
// expect: clean
// why: paper 001 "DCL Fixed": `instance` is a std::atomic with acquire load / release store, so the unlocked check synchronizes with the publication
#include <atomic>
#include <mutex>
#include <thread>

class Singleton {
 public:
  static Singleton* get();
  int value = 42;

 private:
  static std::atomic<Singleton*> instance;
  static std::mutex sync;
};

std::atomic<Singleton*> Singleton::instance{nullptr};
std::mutex Singleton::sync;

Singleton* Singleton::get() {
  Singleton* p = instance.load(std::memory_order_acquire);
  if (p == nullptr) {
    std::lock_guard<std::mutex> lock(sync);
    p = instance.load(std::memory_order_relaxed);
    if (p == nullptr) {
      p = new Singleton();
      instance.store(p, std::memory_order_release);
    }
  }
  return p;
}

Singleton* seen[2];

int main() {
  std::thread a([] { seen[0] = Singleton::get(); });
  std::thread b([] { seen[1] = Singleton::get(); });
  a.join();
  b.join();
  int ok = seen[0] == seen[1] && seen[0]->value == 42;
  delete seen[0];
  return ok ? 0 : 1;
}
