// snag-check-suite
// expect: race
// why: paper 001 "DCL Broken" (Fig. 1): the unlocked first check reads `instance` while another thread writes it inside the lock
#include <mutex>
#include <thread>

class Singleton {
 public:
  static Singleton* get();
  int value = 42;

 private:
  static Singleton* instance;
  static std::mutex sync;
};

Singleton* Singleton::instance = nullptr;
std::mutex Singleton::sync;

Singleton* Singleton::get() {
  Singleton* p = instance;  // RACE:first
  if (p == nullptr) {
    std::lock_guard<std::mutex> lock(sync);
    p = instance;
    if (p == nullptr) {
      p = new Singleton();
      instance = p;  // RACE:second
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
