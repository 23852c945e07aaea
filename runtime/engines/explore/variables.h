// Variables for variable bounding (paper 004): a global (here: the 8-byte
// granule of any non-heap address) or a heap block, named by its allocation
// site and how many blocks that site had allocated before it ("instance"
// keys, for vb) or by the allocation site alone ("site" keys, for pctvb).
// Keys are stable across schedules forked from one snapshot and across runs
// with address-space randomisation off.
#pragma once

#include <stdint.h>

#include "snag/abi.h"

namespace snag::explore {

enum class VariableKind : uint8_t { kGlobal, kHeapInstance, kHeapSite };

VariableKind variable_kind(uint64_t key);

// The keys of the variable at `addr`: `instance` (global or heap instance)
// and `site` (global or heap site; equal to `instance` for globals).
void variable_keys(uintptr_t addr, uint64_t *instance, uint64_t *site);

// The variables that schedules so far saw accessed by two threads or more
// (the planner notes them; a cover schedule's accesses to them are
// scheduling points). At most kMaxSharedVariables; later ones are not kept.
constexpr uint32_t kMaxSharedVariables = 64;
void note_shared_variable(uint64_t key);
bool is_shared_variable(uint64_t key);
uint32_t shared_variable_count();
uint64_t shared_variable(uint32_t i);
// Whether `addr` belongs to a variable noted shared.
bool in_shared_variable(uintptr_t addr);

void heap_block_allocated(uintptr_t start, uintptr_t size, snag_site_t site);
void heap_block_freed(uintptr_t start);

}  // namespace snag::explore
