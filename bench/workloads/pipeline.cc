// pipeline: a 3-stage producer/consumer pipeline joined by bounded queues
// (std::mutex + two std::condition_variable each).
//   stage 1: one producer creates heap-allocated items and fills their payload
//   stage 2: two workers transform each item in place (payload ownership moves
//            between threads through the queue, with no lock held while working)
//   stage 3: one consumer folds the results and frees the items
// The fold is commutative, so the checksum does not depend on the order in
// which the two stage-2 workers finish their items.
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace {

constexpr int kItems = 180000;
constexpr int kPayload = 32;
constexpr int kWorkers = 2;
constexpr size_t kCapacity = 64;

struct Item {
  uint64_t id;
  uint64_t payload[kPayload];
  uint64_t result;
};

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t cap) : cap_(cap) {}
  void push(T v) {
    std::unique_lock<std::mutex> l(m_);
    not_full_.wait(l, [&] { return q_.size() < cap_; });
    q_.push_back(v);
    l.unlock();
    not_empty_.notify_one();
  }
  T pop() {
    std::unique_lock<std::mutex> l(m_);
    not_empty_.wait(l, [&] { return !q_.empty(); });
    T v = q_.front();
    q_.pop_front();
    l.unlock();
    not_full_.notify_one();
    return v;
  }

 private:
  std::mutex m_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> q_;
  size_t cap_;
};

uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

int main() {
  BoundedQueue<Item*> q1(kCapacity), q2(kCapacity);

  std::thread producer([&] {
    for (int i = 0; i < kItems; ++i) {
      Item* it = new Item;
      it->id = i;
      uint64_t s = mix(i + 1);
      for (auto& p : it->payload) p = s = mix(s);
      it->result = 0;
      q1.push(it);
    }
    for (int w = 0; w < kWorkers; ++w) q1.push(nullptr);
  });

  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w)
    workers.emplace_back([&] {
      for (;;) {
        Item* it = q1.pop();
        if (!it) break;
        // Transform in place: a few rounds of mixing over the payload.
        for (int round = 0; round < 4; ++round)
          for (int k = 0; k < kPayload; ++k)
            it->payload[k] = mix(it->payload[k] ^ it->payload[(k + 1) % kPayload]);
        uint64_t r = it->id;
        for (auto p : it->payload) r = r * 31 + p;
        it->result = r;
        q2.push(it);
      }
      q2.push(nullptr);
    });

  uint64_t sum = 0, x = 0, count = 0;
  std::thread consumer([&] {
    int done = 0;
    while (done < kWorkers) {
      Item* it = q2.pop();
      if (!it) {
        ++done;
        continue;
      }
      sum += it->result;
      x ^= mix(it->result + it->payload[it->id % kPayload]);
      ++count;
      delete it;
    }
  });

  producer.join();
  for (auto& w : workers) w.join();
  consumer.join();
  std::printf("checksum %016llx items=%llu\n",
              (unsigned long long)(sum ^ (x * 3)), (unsigned long long)count);
  return 0;
}
