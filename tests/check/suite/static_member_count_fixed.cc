// snag-check-suite
// expect: clean
// why: the static member `created_` that every Session constructor bumps is a std::atomic
#include <atomic>
#include <thread>

class Session {
 public:
  explicit Session(int id) : id_(id) { ++created_; }
  int id() const { return id_; }
  static int created() { return created_; }

 private:
  int id_;
  static std::atomic<int> created_;
};

std::atomic<int> Session::created_{0};

void serve(int id) {
  Session s(id);
  (void)s.id();
}

int main() {
  std::thread a(serve, 1);
  std::thread b(serve, 2);
  a.join();
  b.join();
  return Session::created() == 2 ? 0 : 1;
}
