/* The race engine's state-word layout and fast-path data, as the compiler
 * pass reads them in the check it inlines before an access hook
 * (compiler/plugin/RaceFastPath.cpp). The runtime defines its layout from
 * these numbers (runtime/engines/race/state.h) and checks its structures'
 * offsets against them (runtime/engines/race/fast_path.cpp), so the two
 * sides cannot drift apart.
 *
 * State word (one per 8-byte granule, or per coarse heap block):
 *   bits 0-2 kind; for the Exclusive kinds: bit 3 "the owner wrote in this
 *   epoch", bits 4-11 the bytes it touched, bits 12-63 owner and clock.
 * A thread's epoch word is what an Exclusive word it owns in its current
 * epoch reads as in bits 12-63 (the other bits zero); 0 while the fast path
 * is off (another engine wants every access), so no word matches it then. */
#ifndef SNAG_RACE_FAST_PATH_H
#define SNAG_RACE_FAST_PATH_H

#define SNAG_RACE_KIND_MASK 7ull
#define SNAG_RACE_KIND_EXCLUSIVE0 1
#define SNAG_RACE_KIND_EXCLUSIVE1 2
#define SNAG_RACE_KIND_EXCLUSIVE2 5
#define SNAG_RACE_KIND_SHARED_READ 3
/* Shared-Read words hold their lockset id (0: no lock) in bits 32-63. */
#define SNAG_RACE_LOCKSET_SHIFT 32
#define SNAG_RACE_EMPTY_LOCKSET 0
#define SNAG_RACE_WROTE_BIT 8ull
#define SNAG_RACE_BYTES_SHIFT 4
#define SNAG_RACE_BYTES_MASK (0xffull << SNAG_RACE_BYTES_SHIFT)
/* The bits an Exclusive word shares with its owner's epoch word. */
#define SNAG_RACE_OWNER_MASK \
  (~(SNAG_RACE_KIND_MASK | SNAG_RACE_WROTE_BIT | SNAG_RACE_BYTES_MASK))

/* Direct-mapped state words: the state word of granule address g (g a
 * multiple of 8) is at g + __snag_slot_offset[g >> SNAG_RACE_SLOT_BITS]
 * when that entry is not 0; SNAG_RACE_SLOT_COUNT entries. */
#define SNAG_RACE_SLOT_BITS 39
#define SNAG_RACE_SLOT_COUNT 256

/* The calling thread's fast-path data, __snag_fast_path (initial-exec TLS):
 * its epoch word, the lockset id of the locks it holds, and the coarse blocks it remembers, newest first, each
 * {start, end, record}: an access inside [start, end) may ask the record's
 * state directly, if the record still has that range and is not fine. */
#define SNAG_RACE_FAST_PATH_EPOCH_OFFSET 0
#define SNAG_RACE_FAST_PATH_LOCKSET_ALL_OFFSET 8 /* 32 bits: every lock it holds */
#define SNAG_RACE_FAST_PATH_REMEMBERED_OFFSET 16
#define SNAG_RACE_REMEMBERED_SIZE 24
#define SNAG_RACE_REMEMBERED_COUNT 2
#define SNAG_RACE_REMEMBERED_START_OFFSET 0
#define SNAG_RACE_REMEMBERED_END_OFFSET 8
#define SNAG_RACE_REMEMBERED_BLOCK_OFFSET 16

/* A heap block record: its `fine` flag (a byte), state word, start, and
 * the low 32 bits of its size (a block of 4 GiB or more never matches a
 * remembered range through them, and is left to the hook). */
#define SNAG_RACE_BLOCK_FINE_OFFSET 2
#define SNAG_RACE_BLOCK_SIZE_OFFSET 4
#define SNAG_RACE_BLOCK_STATE_OFFSET 8
#define SNAG_RACE_BLOCK_START_OFFSET 16

#endif
