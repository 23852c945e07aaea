// short_lived_locks: two threads each make and free 500,000 small objects
// that hold a std::mutex (a request, a connection, an account), keeping the
// last 64 alive and locking each a few times. What a detector keeps per
// mutex must be released with the object's memory: memory should follow the
// 128 objects alive, not the million made.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>

namespace {

constexpr int kObjects = 500000;
constexpr int kAlive = 64;

struct Account {
  std::mutex lock;
  uint64_t balance = 0;
};

uint64_t churn(uint64_t seed) {
  Account *alive[kAlive] = {};
  uint64_t sum = 0;
  for (int i = 0; i < kObjects; ++i) {
    Account *&slot = alive[i % kAlive];
    if (slot) {
      std::lock_guard<std::mutex> hold(slot->lock);
      sum += slot->balance;
    }
    delete slot;
    slot = new Account;
    for (int k = 0; k < 3; ++k) {
      std::lock_guard<std::mutex> hold(slot->lock);
      slot->balance += seed * i + k;
    }
  }
  for (Account *a : alive) delete a;
  return sum;
}

}  // namespace

int main() {
  uint64_t sums[2] = {};
  std::thread a([&] { sums[0] = churn(3); });
  std::thread b([&] { sums[1] = churn(5); });
  a.join();
  b.join();
  std::printf("checksum %llx\n", static_cast<unsigned long long>(sums[0] ^ sums[1]));
}
