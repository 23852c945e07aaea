// The tsv engine's settings, from SNAG_OPTIONS. Their defaults, TSVD's
// (paper 000, section 3.4), and ranges are in core/option_table.h.
#pragma once

#include <stdint.h>

namespace snag::tsv {

struct TsvParams {
  uint32_t delay_ms;                  // delay injected at a dangerous call
  uint32_t near_miss_ms;              // T_nm: calls this close are a near miss
  uint32_t phase_calls;               // calls in the concurrent-phase history
  uint32_t hb_percent;                // δ_hb: a gap of this % of a delay means "blocked by it"
  uint32_t hb_calls;                  // k_hb: calls of a blocked thread ordered after the delay
  uint32_t decay_percent;             // probability lost per delay that caught nothing
  uint32_t max_thread_delay_ms;       // delay budget of one thread
  const char *trap_file;              // dangerous pairs carried between runs
};

// Read once at start-up.
const TsvParams &params();
void load_params();

// Milliseconds since start-up, from the coarse monotonic clock: a few
// nanoseconds, where precise clocks cost tens under a hypervisor; its tick
// of a few milliseconds is plenty for 100 ms windows. (What must be exact —
// whether a call came before a thread was created — is decided by epochs,
// not by time.)
uint32_t now_ms();

}  // namespace snag::tsv
