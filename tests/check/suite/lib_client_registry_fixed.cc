// snag-check-suite
// expect: clean
// why: ClientRegistry::add takes the mutex before it hands out an id from next_id_
// entry: library
#include <map>
#include <mutex>
#include <string>

class ClientRegistry {
 public:
  int add(const std::string& name) {
    std::lock_guard<std::mutex> lock(m_);
    int id = next_id_++;
    clients_[id] = name;
    return id;
  }

  bool remove(int id) {
    std::lock_guard<std::mutex> lock(m_);
    return clients_.erase(id) == 1;
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(m_);
    return clients_.size();
  }

 private:
  mutable std::mutex m_;
  std::map<int, std::string> clients_;
  int next_id_ = 1;
};
