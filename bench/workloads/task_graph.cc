// task_graph: an allocation-heavy task DAG run by a small thread pool.
// The graph has kLayers layers of kWidth tasks; task (l, i) depends on two
// tasks of layer l-1. A task becomes ready when its atomic dependency count
// drops to zero and is then pushed on the pool's queue (mutex + condvar).
// Each task allocates and frees many small objects: a std::vector of
// std::string built from its inputs, a linked list of `new`-ed nodes and a
// std::vector it sorts. Results pass between tasks (on different threads)
// through the task objects; the final checksum depends only on the DAG.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kWorkers = 4;
constexpr int kLayers = 24;
constexpr int kWidth = 64;
constexpr int kStrings = 220;

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

class ThreadPool {
 public:
  explicit ThreadPool(int n) {
    for (int i = 0; i < n; ++i) threads_.emplace_back([this] { run(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> g(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void submit(std::function<void()> f) {
    {
      std::lock_guard<std::mutex> g(m_);
      q_.push_back(std::move(f));
    }
    cv_.notify_one();
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> f;
      {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return stop_ || !q_.empty(); });
        if (q_.empty()) return;
        f = std::move(q_.front());
        q_.pop_front();
      }
      f();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> q_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

struct Node {
  uint64_t v;
  Node* next;
};

struct Task {
  int layer = 0, index = 0;
  int deps[2] = {-1, -1};  // indices in layer-1
  std::vector<int> succs;  // indices in layer+1
  std::atomic<int> pending{0};
  uint64_t result = 0;
  std::string label;  // written by the task, read by its successors
};

struct Graph {
  std::vector<std::unique_ptr<Task>> tasks;
  Task& at(int l, int i) { return *tasks[l * kWidth + i]; }
};

uint64_t body(Graph& g, Task& t) {
  uint64_t seed = mix(t.layer * 1000003ULL + t.index);
  std::string in;
  if (t.layer > 0)
    for (int d : t.deps) {
      Task& p = g.at(t.layer - 1, d);
      seed = mix(seed ^ p.result);
      in += p.label;
    }
  // Many short strings (heap-allocated past the SSO limit).
  std::vector<std::string> words;
  for (int k = 0; k < kStrings; ++k) {
    seed = mix(seed + k);
    std::string w = "w" + std::to_string(seed % 100000) + "-" + in.substr(0, 8 + seed % 16);
    words.push_back(std::move(w));
  }
  std::sort(words.begin(), words.end());
  // A linked list of small heap nodes, walked and freed.
  Node* head = nullptr;
  for (const auto& w : words) head = new Node{w.size() * 131 + static_cast<unsigned char>(w[1]), head};
  uint64_t acc = seed;
  while (head) {
    acc = mix(acc + head->v);
    Node* n = head->next;
    delete head;
    head = n;
  }
  // A vector of small vectors.
  std::vector<std::vector<uint32_t>> nums;
  for (int k = 0; k < 64; ++k) {
    nums.emplace_back();
    for (int j = 0; j <= k % 9; ++j) nums.back().push_back(static_cast<uint32_t>(mix(acc + j)));
  }
  for (auto& v : nums) acc += *std::max_element(v.begin(), v.end());
  t.label = words[acc % words.size()].substr(0, 24);
  return acc;
}

}  // namespace

int main() {
  Graph g;
  for (int l = 0; l < kLayers; ++l)
    for (int i = 0; i < kWidth; ++i) {
      auto t = std::make_unique<Task>();
      t->layer = l;
      t->index = i;
      if (l > 0) {
        t->deps[0] = i;
        t->deps[1] = (i * 7 + 3) % kWidth;
        if (t->deps[1] == t->deps[0]) t->deps[1] = (i + 1) % kWidth;
        t->pending.store(2, std::memory_order_relaxed);
      }
      g.tasks.push_back(std::move(t));
    }
  for (int l = 1; l < kLayers; ++l)
    for (int i = 0; i < kWidth; ++i)
      for (int d : g.at(l, i).deps) g.at(l - 1, d).succs.push_back(i);

  std::mutex done_m;
  std::condition_variable done_cv;
  int remaining = kLayers * kWidth;
  {
    ThreadPool pool(kWorkers);
    std::function<void(Task*)> run = [&](Task* t) {
      t->result = body(g, *t);
      if (t->layer + 1 < kLayers)
        for (int s : t->succs) {
          Task* n = &g.at(t->layer + 1, s);
          if (n->pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
            pool.submit([&run, n] { run(n); });
        }
      std::lock_guard<std::mutex> l(done_m);
      if (--remaining == 0) done_cv.notify_one();
    };
    for (int i = 0; i < kWidth; ++i) {
      Task* t = &g.at(0, i);
      pool.submit([&run, t] { run(t); });
    }
    std::unique_lock<std::mutex> l(done_m);
    done_cv.wait(l, [&] { return remaining == 0; });
  }
  uint64_t h = 0;
  for (auto& t : g.tasks) h = mix(h ^ t->result) + t->label.size();
  std::printf("checksum %016llx tasks=%d\n", (unsigned long long)h, kLayers * kWidth);
  return 0;
}
