// Where the race engine's memory names lockset ids, for retiring the pairs
// of locks nothing names any more (lock_pairs.h, race_bench.txt §72).
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace snag::race {

// lock_pairs.h's finder for the race engine. Ids are kept in state words
// (Shared-Read and Shared-Modify1: the variable's lockset), in histories
// (the locks of each remembered access) wherever they live (the pool, heap
// block records, split granules, spills), in Shared-Modify2 records and in
// each thread's record (the locks it holds, its memo of sets). Rather than
// follow each of those structures, it reads every resident page of the
// runtime's own memory (internal_alloc.h's mappings but the tables mapped
// unvisited: addresses, pointers, the pairs' own keys and index) as 32-bit
// words and takes any whose low 24 bits fall in the pairs' id range for a
// name: every place above keeps an id in the low bits of an aligned 32-bit
// word, and a word that only looks like one keeps a pair that could go.
// State words live in the slots' shadow instead, read for the program's
// mappings (/proc/self/maps) wherever their shadow is resident.
size_t find_named_lock_pairs(uint32_t pairs, uint64_t *named);

}  // namespace snag::race
