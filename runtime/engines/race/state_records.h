// The records a state word owns: a Shared-Modify2 word's threadset record,
// an Indirect word's split granule (and its bytes' threadset records). A
// record is made for one word and belongs to it alone; it is given back
// when the word stops pointing at it, whether the state machine replaced
// the word or the memory was freed. Before this, none were: a program that
// filled and freed a vector of atomics from two threads in rounds kept
// every round's records (1.5 GB after ten rounds of two million).
#pragma once

#include <stdint.h>

namespace snag::race {

struct ShadowPage;

// Gives back what `word` pointed at, once the caller took the word out of
// its place (a successful compare-and-swap or exchange: nobody else can
// give it back too). A thread that loaded the word just before may still
// read the record: records wait in a quarantine of 4,096 before their
// memory is used again, and that thread's compare-and-swap fails.
void retire_state_records(uint64_t word);

// Notes that a granule of `addr`'s page holds a word that owns a record, so
// that freeing memory there gives them back (release_state_records).
void note_state_record(uintptr_t addr);

// Takes every owning word of granules [lo, hi) of `page` (the shadow page
// of the application page at `page_start`) out of its place (it reads as
// Virgin) and gives back its records, if the page was noted. Called when
// the memory is freed, before its shadow is reset.
void release_state_records(ShadowPage *page, uintptr_t page_start, uint32_t lo, uint32_t hi);

// How many records were ever given back (for tests).
uint64_t state_records_retired();

}  // namespace snag::race
