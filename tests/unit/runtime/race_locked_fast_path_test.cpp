// The fast path's answer for Shared-Modify1 data (fast_path.h,
// locked_access_needs_no_work): "no work" only when the thread holds exactly
// the variable's lockset and the slot the access would be remembered in
// already holds this thread's access in this epoch; anything else goes to
// the engine, which records the access or changes the state.
#include "engines/race/fast_path.h"

#include <gtest/gtest.h>

#include "engines/race/lockset.h"

namespace snag::race {
namespace {

constexpr Tid kMe = 5, kOther = 6;
constexpr Clock kNow = 70;
constexpr uintptr_t kM = 0x63000, kN = 0x63040;  // lock addresses of these tests only

LocksetId set_of(uintptr_t lock) { return lockset_intern(&lock, 1); }

// The calling thread as the race engine publishes it, holding `all` (and
// `write` in write mode).
struct FastPathOn {
  FastPathOn(LocksetId all, LocksetId write) {
    t_fast_path = {exclusive_word(Kind::kVirgin, kMe, kNow, false, 0), all, write};
  }
  ~FastPathOn() { t_fast_path = {}; }
};

History access_by(Tid thread, Clock clock, bool write) {
  History h{};
  h.stack = 1234;
  h.thread = thread;
  h.clock = clock;
  h.write = write;
  return h;
}

TEST(LockedFastPath, SameLocksAndThisEpochsAccessRememberedNeedNoWork) {
  FastPathOn on(set_of(kM), set_of(kM));
  const uint64_t w = shared_word(Kind::kSharedModify1, set_of(kM));
  std::atomic<uint64_t> state{w};
  Histories hs{};
  hs.read = access_by(kMe, kNow, false);
  hs.write = access_by(kMe, kNow, true);
  EXPECT_TRUE(locked_access_needs_no_work(state, w, hs, /*write=*/false));
  EXPECT_TRUE(locked_access_needs_no_work(state, w, hs, /*write=*/true));
}

TEST(LockedFastPath, AnAccessNotYetRememberedInThisEpochGoesToTheEngine) {
  FastPathOn on(set_of(kM), set_of(kM));
  const uint64_t w = shared_word(Kind::kSharedModify1, set_of(kM));
  std::atomic<uint64_t> state{w};
  Histories hs{};
  EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, false));  // nothing remembered
  hs.read = access_by(kMe, kNow - 1, false);                       // an earlier epoch
  hs.write = access_by(kOther, kNow, true);                        // another thread
  EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, false));
  EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, true));
  // A read goes to `other_read` when `read` is another thread's.
  hs.read = access_by(kOther, kNow, false);
  hs.other_read = access_by(kMe, kNow, false);
  EXPECT_TRUE(locked_access_needs_no_work(state, w, hs, false));
}

TEST(LockedFastPath, OtherLocksThanTheVariablesGoToTheEngine) {
  const uint64_t w = shared_word(Kind::kSharedModify1, set_of(kM));
  std::atomic<uint64_t> state{w};
  Histories hs{};
  hs.read = access_by(kMe, kNow, false);
  hs.write = access_by(kMe, kNow, true);
  {
    FastPathOn on(set_of(kN), set_of(kN));  // C_x would shrink to the empty set
    EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, false));
  }
  {
    LocksetId both = lockset_intern(std::initializer_list<uintptr_t>{kM, kN}.begin(), 2);
    FastPathOn on(both, both);  // a superset: C_x stays, but not by one compare
    EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, false));
  }
  {
    FastPathOn on(set_of(kM), kEmptyLockset);  // m held for reading only
    EXPECT_TRUE(locked_access_needs_no_work(state, w, hs, false));
    EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, true));
  }
}

TEST(LockedFastPath, AStateThatChangedMeanwhileGoesToTheEngine) {
  FastPathOn on(set_of(kM), set_of(kM));
  const uint64_t w = shared_word(Kind::kSharedModify1, set_of(kM));
  std::atomic<uint64_t> state{kBusyWord};  // another thread is rewriting the history
  Histories hs{};
  hs.read = access_by(kMe, kNow, false);
  EXPECT_FALSE(locked_access_needs_no_work(state, w, hs, false));
}

}  // namespace
}  // namespace snag::race
