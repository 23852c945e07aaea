// snag-check-suite
// expect: clean
// why: Database::commit releases the db lock before it calls back into Cache, so no thread holds one lock while waiting for the other in reverse order
#include <mutex>
#include <thread>

class Cache;

class Database {
 public:
  void load(int& out);
  void commit(Cache& cache);

 private:
  std::mutex m_;
  int rows_ = 7;
};

class Cache {
 public:
  void refresh(Database& db) {
    std::lock_guard<std::mutex> lock(m_);
    db.load(value_);
  }
  void invalidate() {
    std::lock_guard<std::mutex> lock(m_);
    value_ = -1;
  }

 private:
  std::mutex m_;
  int value_ = 0;
};

void Database::load(int& out) {
  std::lock_guard<std::mutex> lock(m_);
  out = rows_;
}

void Database::commit(Cache& cache) {
  {
    std::lock_guard<std::mutex> lock(m_);
    ++rows_;
  }
  cache.invalidate();
}

int main() {
  Cache cache;
  Database db;
  std::thread reader([&] { cache.refresh(db); });
  std::thread writer([&] { db.commit(cache); });
  reader.join();
  writer.join();
  return 0;
}
