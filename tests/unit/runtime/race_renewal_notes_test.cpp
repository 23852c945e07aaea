// A thread's notes of its granule renewals (renewal_notes.h): a note answers
// only the access, site, calling context and lockset it was made for, and
// only while its histories are still the granule's.
#include "engines/race/renewal_notes.h"

#include <gtest/gtest.h>

#include <memory>

namespace snag::race {
namespace {

// The history pool's first chunk, for history_at (shadow.cpp maps it).
class RenewalNotesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pool_ = std::make_unique<PackedHistories[]>(8);
    saved_ = detail::g_history_chunks[0];
    detail::g_history_chunks[0] = pool_.get();
  }
  void TearDown() override { detail::g_history_chunks[0] = saved_; }

  std::unique_ptr<PackedHistories[]> pool_;
  PackedHistories *saved_ = nullptr;
  std::atomic<uint32_t> index_{3};  // the granule's entry in its page's history index
  RenewalNotes notes_;
};

constexpr uintptr_t kAddr = 0x7f0000001004;
const PackedHistory kSlot = pack_entry(41, 7, 2, 0, 4, 2);

TEST_F(RenewalNotesTest, ANoteAnswersItsAccessWithItsHistoriesAndTheSlotAtTheNewClock) {
  const uint64_t key = RenewalNotes::key_of(kAddr, 2, false);
  RenewalNotes::Note &note = notes_.note_for(key, 0x500);
  PackedHistories *histories = nullptr;
  PackedHistory slot{};
  EXPECT_FALSE(RenewalNotes::answers(note, key, 0x500, 9, 7, 12, &histories, &slot)) << "empty";
  RenewalNotes::remember(note, key, 0x500, 9, 7, &index_, 3, kSlot);
  ASSERT_TRUE(RenewalNotes::answers(note, key, 0x500, 9, 7, 12, &histories, &slot));
  EXPECT_EQ(histories, &pool_[3]);
  EXPECT_EQ(slot.stack, kSlot.stack);
  EXPECT_EQ(slot.lockset_high, kSlot.lockset_high);
  EXPECT_EQ(slot.where, kSlot.where);
  EXPECT_EQ(slot.clock, 12u) << "the renewal's epoch, not the noted one's";
}

TEST_F(RenewalNotesTest, AnotherAccessSiteContextOrLocksetIsNotAnswered) {
  const uint64_t key = RenewalNotes::key_of(kAddr, 2, false);
  RenewalNotes::Note &note = notes_.note_for(key, 0x500);
  RenewalNotes::remember(note, key, 0x500, 9, 7, &index_, 3, kSlot);
  PackedHistories *histories;
  PackedHistory slot;
  EXPECT_FALSE(RenewalNotes::answers(note, RenewalNotes::key_of(kAddr, 2, true), 0x500, 9, 7, 12, &histories, &slot))
      << "a write";
  EXPECT_FALSE(RenewalNotes::answers(note, RenewalNotes::key_of(kAddr, 4, false), 0x500, 9, 7, 12, &histories, &slot))
      << "another size";
  EXPECT_FALSE(RenewalNotes::answers(note, RenewalNotes::key_of(kAddr + 1, 2, false), 0x500, 9, 7, 12, &histories,
                                     &slot))
      << "another offset";
  EXPECT_FALSE(RenewalNotes::answers(note, key, 0x501, 9, 7, 12, &histories, &slot)) << "another site";
  EXPECT_FALSE(RenewalNotes::answers(note, key, 0x500, 10, 7, 12, &histories, &slot)) << "another context";
  EXPECT_FALSE(RenewalNotes::answers(note, key, 0x500, 9, 8, 12, &histories, &slot)) << "another lockset";
}

TEST_F(RenewalNotesTest, HistoriesGivenBackOrMovedAreNotAnswered) {
  const uint64_t key = RenewalNotes::key_of(kAddr, 2, false);
  RenewalNotes::Note &note = notes_.note_for(key, 0x500);
  RenewalNotes::remember(note, key, 0x500, 9, 7, &index_, 3, kSlot);
  PackedHistories *histories;
  PackedHistory slot;
  index_.store(0);  // given back (the granule's memory freed)
  EXPECT_FALSE(RenewalNotes::answers(note, key, 0x500, 9, 7, 12, &histories, &slot));
  index_.store(5);  // taken again: other histories of the pool
  EXPECT_FALSE(RenewalNotes::answers(note, key, 0x500, 9, 7, 12, &histories, &slot));
  index_.store(3);
  EXPECT_TRUE(RenewalNotes::answers(note, key, 0x500, 9, 7, 12, &histories, &slot));
}

TEST_F(RenewalNotesTest, KeysNeverZeroAndTellSizeKindAndAddressApart) {
  EXPECT_NE(RenewalNotes::key_of(0, 1, false), 0u);
  EXPECT_NE(RenewalNotes::key_of(kAddr, 1, false), RenewalNotes::key_of(kAddr, 1, true));
  EXPECT_NE(RenewalNotes::key_of(kAddr, 1, false), RenewalNotes::key_of(kAddr, 8, false));
  EXPECT_NE(RenewalNotes::key_of(kAddr, 1, false), RenewalNotes::key_of(kAddr + 1, 1, false));
}

}  // namespace
}  // namespace snag::race
