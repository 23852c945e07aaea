#include "engines/tsv/hb_inference.h"

#include "core/spinlock.h"

namespace snag::tsv {

namespace {

struct Delay {
  snag_site_t site;
  Tid thread;
  uint32_t start;
  uint32_t end;  // 0 while the delay lasts
};

// The most recent delays; older ones cannot explain a silence any more.
constexpr int kDelays = 32;
Delay g_delays[kDelays];
uint32_t g_next;
SpinLock g_lock;

}  // namespace

int delay_started(snag_site_t site, Tid thread, uint32_t now) {
  SpinLockGuard guard(g_lock);
  int handle = static_cast<int>(g_next++ % kDelays);
  g_delays[handle] = {site, thread, now, 0};
  return handle;
}

void delay_ended(int handle, uint32_t now) {
  SpinLockGuard guard(g_lock);
  g_delays[handle].end = now > g_delays[handle].start ? now : g_delays[handle].start + 1;
}

snag_site_t blocking_delay(Tid thread, uint32_t since, uint32_t now, uint32_t min_gap) {
  if (now - since < min_gap) return 0;
  SpinLockGuard guard(g_lock);
  const Delay *best = nullptr;
  for (const Delay &d : g_delays) {
    if (d.end == 0 || d.thread == thread || d.site == 0) continue;
    // The silence [since, now] overlaps the delay [start, end].
    if (d.end < since || d.start > now) continue;
    if (!best || d.end > best->end) best = &d;
  }
  return best ? best->site : 0;
}

}  // namespace snag::tsv
