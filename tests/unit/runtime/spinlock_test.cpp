// The runtime's spin lock across fork: a lock another thread holds when the
// process forks is free in the child (where that thread does not exist),
// and still held in the parent.
#include <gtest/gtest.h>

#include <atomic>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "core/spinlock.h"

namespace snag {
namespace {

TEST(SpinLock, ExcludesWithinAProcess) {
  SpinLock lock;
  EXPECT_TRUE(lock.try_lock());
  EXPECT_FALSE(lock.try_lock());
  lock.unlock();
  EXPECT_TRUE(lock.try_lock());
  lock.unlock();
}

TEST(SpinLock, ALockHeldByAnotherThreadAtForkIsFreeInTheChild) {
  SpinLock lock;
  std::atomic<bool> held{false}, release{false};
  std::thread holder([&] {
    lock.lock();
    held = true;
    while (!release) std::this_thread::yield();
    lock.unlock();
  });
  while (!held) std::this_thread::yield();
  pid_t pid = fork();
  if (pid == 0) {
    // What the runtime's fork interceptor does first in the child.
    fork_generation_advance();
    alarm(10);  // a hang here fails the test instead of blocking it
    lock.lock();  // the holder does not exist here
    bool excludes = !lock.try_lock();
    lock.unlock();
    _exit(excludes ? 0 : 1);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_FALSE(lock.try_lock()) << "the parent's holder still holds it";
  release = true;
  holder.join();
  EXPECT_TRUE(lock.try_lock());
  lock.unlock();
}

}  // namespace
}  // namespace snag
