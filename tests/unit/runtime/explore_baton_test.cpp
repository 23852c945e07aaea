// The baton word (baton.h): a hand-over wakes the receiver only when it
// sleeps in the kernel, and a sleeping receiver is always woken.
#include "engines/explore/baton.h"

#include <pthread.h>

#include <gtest/gtest.h>

namespace snag::explore {
namespace {

TEST(BatonTest, AHandOverToAThreadNotAsleepMakesNoWakeCall) {
  std::atomic<uint32_t> turn{kBatonAway};
  EXPECT_FALSE(pass_baton(turn));
  EXPECT_EQ(turn.load(), kBatonHeld);
  wait_for_baton(turn);  // already held: returns at once, without sleeping
  EXPECT_EQ(turn.load(), kBatonHeld);
}

void *waiter(void *word) {
  wait_for_baton(*static_cast<std::atomic<uint32_t> *>(word));
  return nullptr;
}

TEST(BatonTest, AThreadAsleepOnItsWordIsWokenByTheHandOver) {
  std::atomic<uint32_t> turn{kBatonAway};
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, nullptr, waiter, &turn), 0);
  // The waiter announces its sleep before it sleeps; a hand-over after that
  // must wake it, or the join below never returns.
  while (turn.load() != kBatonAwaitedAsleep) sched_yield();
  EXPECT_TRUE(pass_baton(turn));
  pthread_join(thread, nullptr);
  EXPECT_EQ(turn.load(), kBatonHeld);
}

TEST(BatonTest, ManyHandOversBetweenTwoThreadsLoseNoWakeUp) {
  struct Pair {
    std::atomic<uint32_t> turn[2] = {{kBatonHeld}, {kBatonAway}};
    int count = 0;
  } pair;
  auto player = [](void *p) -> void * {
    auto &pair = *static_cast<Pair *>(p);
    for (int i = 0; i < 10000; ++i) {
      wait_for_baton(pair.turn[1]);
      ++pair.count;
      pair.turn[1].store(kBatonAway, std::memory_order_relaxed);
      pass_baton(pair.turn[0]);
    }
    return nullptr;
  };
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, nullptr, player, &pair), 0);
  for (int i = 0; i < 10000; ++i) {
    wait_for_baton(pair.turn[0]);
    ++pair.count;
    pair.turn[0].store(kBatonAway, std::memory_order_relaxed);
    pass_baton(pair.turn[1]);
  }
  pthread_join(thread, nullptr);
  EXPECT_EQ(pair.count, 20000);
}

}  // namespace
}  // namespace snag::explore
