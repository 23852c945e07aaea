// Accesses the race engine flagged as racy (the CLI's pre-pass runs the
// program once under `race` and passes the access sites and the addresses of
// its data-race findings as `racy_sites` and `racy_addresses`): an access at
// such a site, or to such an address, is a scheduling point in every
// schedule, so a race between plain accesses (a thread that takes the wrong
// lock) can be split without making every access a point
// (`preempt_on_access`). The addresses matter because the race engine
// reports a variable once, with two of its accesses: the other accesses to
// it (a re-read after a check) are where the preemption must fall.
#pragma once

#include <stdint.h>

#include "core/text_buffer.h"
#include "snag/abi.h"

namespace snag::explore {

// Reads comma-separated hex site ids ("1a2b,3c4d"); stops at anything else.
// Returns where it stopped.
const char *racy_sites_parse(const char *list);
// The same for hex addresses (kept per 8-byte granule).
const char *racy_addresses_parse(const char *list);
bool racy_sites_any();
// On the access path: hash probes, no lock, no allocation.
bool is_racy_access(snag_site_t site, uintptr_t addr);
// Appends "+sites/ID,ID" and "+addrs/A,A" (each only when there are any) to
// a points text.
void racy_sites_append(TextBuffer &b);

}  // namespace snag::explore
