// snag-check-suite
// expect: clean
// why: paper 001 "Finalizer Race", fixed: the connection counter updated by the mutator and by the finalizer thread is a std::atomic
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

struct Stats {
  std::atomic<int> open_connections{0};
} stats;

struct Connection {
  Connection() { ++stats.open_connections; }
  ~Connection() { --stats.open_connections; }
};

// Destroys retired objects on its own thread, as a GC finalizer thread would.
class Finalizer {
 public:
  explicit Finalizer(int expected) : expected_(expected), thread_([this] { run(); }) {}
  void retire(Connection* c) {
    std::lock_guard<std::mutex> lock(m_);
    queue_.push_back(c);
    cv_.notify_one();
  }
  void join() { thread_.join(); }

 private:
  void run() {
    for (int done = 0; done < expected_; ++done) {
      Connection* c;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [this] { return !queue_.empty(); });
        c = queue_.back();
        queue_.pop_back();
      }
      delete c;
    }
  }

  int expected_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<Connection*> queue_;
  std::thread thread_;
};

int main() {
  Finalizer finalizer(1);
  finalizer.retire(new Connection());
  Connection* next = new Connection();
  finalizer.join();
  delete next;
  return stats.open_connections == 0 ? 0 : 1;
}
