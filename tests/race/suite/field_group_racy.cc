// snag-race-suite
// expect: racy
// why: one thread updates four fields of its heap record with no call between (snag asks once for all four whether they change anything); another thread writes one field before (a relaxed flag, which orders nothing, makes that the order every run), so that field's update meets the write (the one answer must not hide it)
#include <atomic>
#include <thread>

struct Record {
  long a, b, c, d;
};
std::atomic<Record *> published{nullptr};
std::atomic<bool> written{false};
long total;

__attribute__((noinline)) void owner() {
  Record *r = new Record{1, 2, 3, 4};
  published.store(r, std::memory_order_release);
  while (!written.load(std::memory_order_relaxed)) {
  }
  r->a += 10;
  r->b += r->a;
  r->c += 30;  // RACE:first
  r->d += r->b;
  total = r->d;
}

__attribute__((noinline)) void writer() {
  Record *r;
  while (!(r = published.load(std::memory_order_acquire))) {
  }
  r->c = 7;  // RACE:second
  written.store(true, std::memory_order_relaxed);
}

int main() {
  std::thread a(owner), b(writer);
  a.join();
  b.join();
  delete published.load();
  return 0;
}
