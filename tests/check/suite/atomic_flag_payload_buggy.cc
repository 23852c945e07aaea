// snag-check-suite
// expect: race
// why: the writer publishes the `ready` flag (release) before it fills the payload, so the reader's acquire does not order the payload
#include <atomic>
#include <thread>

struct Frame {
  int width = 0;
  int height = 0;
};

Frame frame;
std::atomic<bool> ready{false};

void render() {
  ready.store(true, std::memory_order_release);
  frame.width = 640;  // RACE:first
}

int main() {
  std::thread renderer(render);
  while (!ready.load(std::memory_order_acquire)) {
  }
  int w = frame.width;  // RACE:second
  renderer.join();
  return w == 0 || w == 640 ? 0 : 1;
}
