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

}  // namespace

const TsvParams &params() { return g_params; }

void load_params() {
  // The table has checked each value against its range (all fit 32 bits).
  const Options &o = options();
  TsvParams p;
  p.delay_ms = uint32_t(o.number("delay_ms"));
  p.near_miss_ms = uint32_t(o.number("near_miss_ms"));
  p.phase_calls = uint32_t(o.number("phase_calls"));
  p.hb_percent = uint32_t(o.number("hb_percent"));
  p.hb_calls = uint32_t(o.number("hb_calls"));
  p.decay_percent = uint32_t(o.number("decay_percent"));
  p.max_thread_delay_ms = uint32_t(o.number("max_thread_delay_ms"));
  p.trap_file = o.text("trap_file");
  g_params = p;
  g_start_ms = monotonic_ms();
}

uint32_t now_ms() { return static_cast<uint32_t>(monotonic_ms() - g_start_ms); }

}  // namespace snag::tsv
