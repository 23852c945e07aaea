// snag-check-suite
// expect: race
// why: a static initializer starts a thread that fills `warmed_entries`, which main reads before the thread is joined
#include <thread>

int warmed_entries = 0;

class CacheWarmer {
 public:
  CacheWarmer() : thread_([] { warm(); }) {}
  void wait() { thread_.join(); }

 private:
  static void warm() {
    int n = 0;
    for (int i = 0; i < 64; i += 8) ++n;
    warmed_entries = n;  // RACE:first
  }
  std::thread thread_;
};

CacheWarmer warmer;  // runs before main, from the static constructors

int main() {
  int seen = warmed_entries;  // RACE:second
  warmer.wait();
  return seen == 0 || seen == 8 ? 0 : 1;
}
