// snag-check-suite
// expect: clean
// why: Store::size takes the same lock as Store::put, so the read three call layers down is ordered with the writes
#include <mutex>
#include <string>
#include <thread>

class Store {
 public:
  void put(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_);
    last_key_ = key;
    ++count_;
  }
  int size() const {
    std::lock_guard<std::mutex> lock(m_);
    return count_;
  }

 private:
  mutable std::mutex m_;
  std::string last_key_;
  int count_ = 0;
};

class Service {
 public:
  explicit Service(Store& s) : store_(s) {}
  void handle(int id) { store_.put("req-" + std::to_string(id)); }

 private:
  Store& store_;
};

class Reporter {
 public:
  explicit Reporter(const Store& s) : store_(s) {}
  bool busy() const { return store_.size() > 100; }

 private:
  const Store& store_;
};

Store store;

void serve_requests() {
  Service service(store);
  for (int id = 0; id < 3; ++id) service.handle(id);
}

int main() {
  std::thread server(serve_requests);
  Reporter reporter(store);
  bool busy = reporter.busy();
  server.join();
  return busy ? 1 : 0;
}
