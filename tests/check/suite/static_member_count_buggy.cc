// snag-check-suite
// expect: race
// why: every Session constructor bumps the static member `created_`, and sessions are constructed on two threads at once
#include <thread>

class Session {
 public:
  explicit Session(int id) : id_(id) { ++created_; }  // RACE:first RACE:second
  int id() const { return id_; }
  static int created() { return created_; }

 private:
  int id_;
  static int created_;
};

int Session::created_ = 0;

void serve(int id) {
  Session s(id);
  (void)s.id();
}

int main() {
  std::thread a(serve, 1);
  std::thread b(serve, 2);
  a.join();
  b.join();
  return Session::created() <= 2 ? 0 : 1;
}
