// Accesses the race engine flagged as racy (the CLI's pre-pass runs the
// program once under `race` and passes the access sites of its data-race
// findings as `racy_sites`): each is a scheduling point in every schedule,
// so a race between plain accesses (a thread that takes the wrong lock) can
// be split without making every access a point (`preempt_on_access`).
#pragma once

#include "core/text_buffer.h"
#include "snag/abi.h"

namespace snag::explore {

// Reads comma-separated hex site ids ("1a2b,3c4d"); stops at anything else.
// Returns where it stopped.
const char *racy_sites_parse(const char *list);
bool racy_sites_any();
// On the access path: one hash probe sequence, no lock, no allocation.
bool is_racy_site(snag_site_t site);
// Appends "+sites/ID,ID" (nothing without sites) to a points text.
void racy_sites_append(TextBuffer &b);

}  // namespace snag::explore
