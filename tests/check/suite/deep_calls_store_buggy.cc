// snag-check-suite
// expect: race
// why: three call layers down, Store::put writes count_ under the store's lock while Reporter -> Store::size reads it without the lock
#include <mutex>
#include <string>
#include <thread>

class Store {
 public:
  void put(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_);
    last_key_ = key;
    ++count_;  // RACE:first
  }
  int size() const { return count_; }  // RACE:second

 private:
  std::mutex m_;
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
