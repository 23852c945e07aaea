// snag-check-suite
// expect: clean
// why: the loop body's shared counter is a std::atomic; every worker writes only its own squares[i]
#include <atomic>
#include <functional>
#include <thread>
#include <vector>

// Static scheduling: worker w runs the iterations w, w + n, w + 2n, ...
void parallel_for(int begin, int end, int workers, const std::function<void(int)>& body) {
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w)
    pool.emplace_back([=, &body] {
      for (int i = begin + w; i < end; i += workers) body(i);
    });
  for (auto& t : pool) t.join();
}

std::atomic<int> processed{0};
int squares[8];

int main() {
  parallel_for(0, 8, 2, [](int i) {
    squares[i] = i * i;
    ++processed;
  });
  return processed == 8 && squares[7] == 49 ? 0 : 1;
}
