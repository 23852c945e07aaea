// The heap blocks tracked per granule: made fine, or cut into chunks
// (heap_blocks.cpp). Their shadow pages no longer point at them, so a free
// or a report finds them here. A racy linked structure makes every node
// fine: a free looked its block up in a list of them, and 40,000 nodes
// freed took 6.7 s (race_bench section 89); here the block a free names by
// its start is one probe away.
//
// Every function is called under heap_blocks.cpp's refinement lock.
#ifndef SNAG_ENGINES_RACE_FINE_BLOCKS_H
#define SNAG_ENGINES_RACE_FINE_BLOCKS_H

#include <stdint.h>

namespace snag::race {

struct HeapBlock;

void fine_blocks_add(HeapBlock *block);
// Nothing when `block` is not in the set.
void fine_blocks_remove(HeapBlock *block);
// The fine block holding `addr` (null: none): by its start in one probe,
// else by looking at each (a report or a lock made inside a block).
HeapBlock *fine_blocks_find(uintptr_t addr);

}  // namespace snag::race

#endif
