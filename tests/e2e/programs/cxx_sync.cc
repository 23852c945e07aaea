// The C++ standard library's synchronization, each of which must produce the
// events its pthread or futex implementation implies.
#include <condition_variable>
#include <cstdio>
#include <future>
#include <latch>
#include <linux/futex.h>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

std::mutex m;
std::shared_mutex shared;
std::once_flag once;

int next_id() { return std::rand() % 1 + 1; }

int &local_static() {
  static int value = next_id(); // MARK:local-static
  return value;
}

int main() {
  std::thread t([] { std::lock_guard<std::mutex> g(m); }); // MARK:std-thread
  t.join();
  {
    std::shared_lock<std::shared_mutex> reader(shared); // MARK:shared-lock
  }
  {
    std::unique_lock<std::shared_mutex> writer(shared); // MARK:unique-lock
  }
  std::call_once(once, [] { std::puts("once"); }); // MARK:call-once
  int first = local_static();
  auto future = std::async(std::launch::async, [] { return 6 * 7; }); // MARK:async
  int answer = future.get();
  std::promise<int> promise;
  std::thread producer([&] { promise.set_value(5); });
  int promised = promise.get_future().get();
  producer.join();
  std::jthread stoppable([](std::stop_token st) { while (!st.stop_requested()) std::this_thread::yield(); });
  stoppable.request_stop();
  stoppable.join();
  std::latch latch(1);
  latch.count_down();
  latch.wait();
  std::counting_semaphore<4> sem(1);
  sem.acquire();
  sem.release();
  // A futex wait whose expected value is already stale returns at once, and a
  // wake with no waiter: both are deterministic.
  int word = 0;
  syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0); // MARK:futex-wait
  syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0); // MARK:futex-wake
  std::printf("%d %d %d\n", first, answer, promised);
}
