// snag-check-suite
// expect: deadlock
// why: Cache::refresh holds the cache lock and calls into Database, while Database::commit holds the db lock and calls back into Cache
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
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    db.load(value_);
  }
  void invalidate() {
    std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
    value_ = -1;
  }

 private:
  std::mutex m_;
  int value_ = 0;
};

void Database::load(int& out) {
  std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
  out = rows_;
}

void Database::commit(Cache& cache) {
  std::lock_guard<std::mutex> lock(m_);  // DEADLOCK
  ++rows_;
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
