#include "engines/tsv/tsv_params.h"

#include <time.h>

#include "core/options.h"
#include "core/platform.h"

namespace snag::tsv {

namespace {

TsvParams g_params;
uint64_t g_start_ms;

uint64_t monotonic_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

// A whole number in [min, max] from SNAG_OPTIONS, or the default.
uint32_t bounded(const char *key, uint32_t fallback, uint32_t min, uint32_t max) {
  uint64_t value = options().get_u64(key, fallback);
  if (value < min || value > max) {
    char message[160] = "SNAG_OPTIONS: ";
    copy_text(message + cstr_len(message), 60, key);
    copy_text(message + cstr_len(message), 80, " is out of range; using the default");
    print_error(message);
    return fallback;
  }
  return static_cast<uint32_t>(value);
}

}  // namespace

const TsvParams &params() { return g_params; }

void load_params() {
  TsvParams p;
  p.delay_ms = bounded("delay_ms", p.delay_ms, 1, 60000);
  p.near_miss_ms = bounded("near_miss_ms", p.near_miss_ms, 1, 60000);
  p.phase_calls = bounded("phase_calls", p.phase_calls, 2, 64);
  p.hb_percent = bounded("hb_percent", p.hb_percent, 1, 100);
  p.hb_calls = bounded("hb_calls", p.hb_calls, 0, 1000);
  p.decay_percent = bounded("decay_percent", p.decay_percent, 0, 100);
  p.max_thread_delay_ms = bounded("max_thread_delay_ms", p.max_thread_delay_ms, 0, 3600000);
  p.trap_file = options().get("trap_file");
  g_params = p;
  g_start_ms = monotonic_ms();
}

uint32_t now_ms() { return static_cast<uint32_t>(monotonic_ms() - g_start_ms); }

}  // namespace snag::tsv
