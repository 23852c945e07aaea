// explore suite: dining_four, fixed twin.
// Every philosopher takes the lower-numbered of its two forks first, which breaks the
// cycle (the last philosopher now reaches for fork 0 first).
// explore-budget: 10000
#include <algorithm>
#include <mutex>
#include <thread>

constexpr int kSeats = 4;
std::mutex forks[kSeats];
int meals[kSeats];  // meals[i] written only by philosopher i

void philosopher(int seat) {
  int left = std::min(seat, (seat + 1) % kSeats);
  int right = std::max(seat, (seat + 1) % kSeats);
  std::lock_guard<std::mutex> l(forks[left]);
  std::lock_guard<std::mutex> r(forks[right]);
  ++meals[seat];
}

int main() {
  std::thread p0(philosopher, 0);
  std::thread p1(philosopher, 1);
  std::thread p2(philosopher, 2);
  std::thread p3(philosopher, 3);
  p0.join();
  p1.join();
  p2.join();
  p3.join();
  return 0;
}
