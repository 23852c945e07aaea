// The tsv engine's settings (SNAG_OPTIONS keys, docs/options.md), with
// TSVD's defaults (paper 000, section 3.4, and its reference code).
#pragma once

#include <stdint.h>

namespace snag::tsv {

struct TsvParams {
  uint32_t delay_ms = 100;            // delay injected at a dangerous call
  uint32_t near_miss_ms = 100;        // T_nm: calls this close are a near miss
  uint32_t phase_calls = 16;          // calls in the concurrent-phase history
  uint32_t hb_percent = 50;           // δ_hb: a gap of this % of a delay means "blocked by it"
  uint32_t hb_calls = 5;              // k_hb: calls of a blocked thread ordered after the delay
  uint32_t decay_percent = 10;        // probability lost per delay that caught nothing
  uint32_t max_thread_delay_ms = 5000;  // delay budget of one thread
  const char *trap_file = nullptr;    // dangerous pairs carried between runs
};

// Read once at start-up; reports bad values on stderr and keeps the default.
const TsvParams &params();
void load_params();

// Milliseconds since start-up, from the coarse monotonic clock: a few
// nanoseconds, where precise clocks cost tens under a hypervisor; its tick
// of a few milliseconds is plenty for 100 ms windows. (What must be exact —
// whether a call came before a thread was created — is decided by epochs,
// not by time.)
uint32_t now_ms();

}  // namespace snag::tsv
