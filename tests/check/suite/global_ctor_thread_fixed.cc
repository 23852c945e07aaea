// snag-check-suite
// expect: clean
// why: main joins the thread that a static initializer started before it reads `warmed_entries`
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
    warmed_entries = n;
  }
  std::thread thread_;
};

CacheWarmer warmer;  // runs before main, from the static constructors

int main() {
  warmer.wait();
  int seen = warmed_entries;
  return seen == 8 ? 0 : 1;
}
