#include <cstdio>
#include <mutex>
#include <thread>

#include "journal.h"
#include "tally.h"

namespace {

std::mutex mu;
tally total;

void work(int who) {
  for (int i = 0; i < 20; ++i) {
    std::lock_guard<std::mutex> guard(mu);
    tally_add(&total, who);
    journal::append(who);
  }
}

}  // namespace

int main() {
  tally_init(&total);
  std::thread first(work, 1);
  std::thread second(work, 2);
  first.join();
  second.join();
  std::printf("sum=%ld entries=%zu\n", tally_sum(&total), journal::size());
  return 0;
}
