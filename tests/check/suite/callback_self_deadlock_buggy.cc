// snag-check-suite
// expect: deadlock
// why: EventBus::publish calls the handlers while holding its mutex, and a handler calls EventBus::subscribe, which locks the same mutex
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class EventBus {
 public:
  void subscribe(std::function<void(int)> handler) {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    handlers_.push_back(std::move(handler));
  }
  void publish(int event) {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    for (std::size_t i = 0; i < handlers_.size(); ++i) handlers_[i](event);
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
