// Vector-clock entries ("slots") of threads, reused after a join.
//
// A vector clock has one entry per slot, so every lock, release and join
// costs time and memory in proportion to the slots ever handed out. A
// program that creates and joins threads one after another (a worker per
// request) would make every clock as long as its whole history of threads.
// Like ThreadSanitizer's thread slots, a slot is reused, but only where that
// keeps happens-before exact: a new thread takes the slot of a joined thread
// only when its creator's clock covers that thread's last epoch, i.e. every
// access of the old thread happens before the new one's. The new thread then
// starts above the old one's clock in that slot, so state words, histories
// and clocks that hold the old thread's (slot, clock) pairs keep their
// meaning: an access of the old thread is ordered before everything the new
// one does, and concurrent with whatever did not synchronize with it.
#pragma once

#include "engines/race/vector_clock.h"

namespace snag::race {

// The slot for a thread created by a thread whose clock is `creator` (null:
// a thread whose creation the runtime did not see), and the clock value the
// new thread starts at there. Records `thread` as the slot's user from then.
struct ClockSlot {
  Tid slot;
  Clock start;
};
ClockSlot take_clock_slot(const VectorClock *creator, Tid thread);

// A joined thread's slot and its last clock value: free for a thread created
// by one that has seen that value (the joiner, or a thread ordered after it).
void give_back_clock_slot(Tid slot, Clock last);

// The thread (ThreadState::tid) that used `slot` at clock `clock`, for reports.
Tid thread_of_slot(Tid slot, Clock clock);

// Forgets every slot (unit tests).
void reset_clock_slots();

}  // namespace snag::race
