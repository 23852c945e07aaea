// explore suite: dining_four, buggy twin.
// Each of four philosophers takes the fork on the left and then the one on the right, so
// when all four hold their left fork at once (three preemptions) they wait in a cycle.
// explore-budget: 10000
#include <mutex>
#include <thread>

constexpr int kSeats = 4;
std::mutex forks[kSeats];
int meals[kSeats];  // meals[i] written only by philosopher i

void philosopher(int seat) {
  int left = seat;
  int right = (seat + 1) % kSeats;
  std::lock_guard<std::mutex> l(forks[left]);   // BUG: deadlock
  std::lock_guard<std::mutex> r(forks[right]);  // BUG: deadlock
  ++meals[seat];
}

int main() {
  std::thread p0(philosopher, 0);
  std::thread p1(philosopher, 1);
  std::thread p2(philosopher, 2);
  std::thread p3(philosopher, 3);
  p0.join();  // BUG: deadlock
  p1.join();  // BUG: deadlock
  p2.join();  // BUG: deadlock
  p3.join();  // BUG: deadlock
  return 0;
}
