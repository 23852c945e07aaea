// snag-check-suite
// expect: clean
// why: EventBus::publish copies the handler list under the mutex and calls the handlers after releasing it, so a handler may subscribe
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class EventBus {
 public:
  void subscribe(std::function<void(int)> handler) {
    std::lock_guard<std::mutex> lock(m_);
    handlers_.push_back(std::move(handler));
  }
  void publish(int event) {
    std::vector<std::function<void(int)>> snapshot;
    {
      std::lock_guard<std::mutex> lock(m_);
      snapshot = handlers_;
    }
    for (std::size_t i = 0; i < snapshot.size(); ++i) snapshot[i](event);
  }

 private:
  std::mutex m_;
  std::vector<std::function<void(int)>> handlers_;
};

EventBus bus;
int seen = 0;

int main() {
  bus.subscribe([](int e) {
    seen = e;
    if (e == 1) bus.subscribe([](int) {});  // re-subscribe on the first event
  });
  std::thread publisher([] { bus.publish(1); });
  publisher.join();
  return seen == 1 ? 0 : 1;
}
