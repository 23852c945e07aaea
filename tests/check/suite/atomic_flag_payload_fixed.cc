// snag-check-suite
// expect: clean
// why: the writer fills the payload before it publishes the `ready` flag with a release store that the reader's acquire load sees
#include <atomic>
#include <thread>

struct Frame {
  int width = 0;
  int height = 0;
};

Frame frame;
std::atomic<bool> ready{false};

void render() {
  frame.width = 640;
  ready.store(true, std::memory_order_release);
}

int main() {
  std::thread renderer(render);
  while (!ready.load(std::memory_order_acquire)) {
  }
  int w = frame.width;
  renderer.join();
  return w == 640 ? 0 : 1;
}
