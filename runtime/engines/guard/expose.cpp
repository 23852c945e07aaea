#include "engines/guard/expose.h"

#include "core/runtime.h"
#include "engines/guard/guard_state.h"

namespace snag::guard {

// Algorithm 3: S whose BSet is {P}, P a site, and S never precedes P: P's
// thread is held before P (or before the outermost lock it held at P) so S
// can run first.
void plan_stall_points() {
  g_bsets.for_each([](SitePairs::Entry &summary) {
    uint64_t first = summary.extra.load(std::memory_order_relaxed);
    if (summary.value != kFactSummary || summary.count != 1 || first == 0) return;
    snag_site_t s = summary.site;
    SitePairs::Entry &member = g_bsets.at(first - 1);
    snag_site_t p = member.value;
    if (!p || g_bsets.contains(p, s)) return;
    snag_site_t point = p;
    if (SitePairs::Entry *lock = g_bsets.find(p, kFactLock)) point = lock->extra.load();
    if (SitePairs::Entry *e = g_expose.insert(point, kFactStallFor))
      e->extra.store(s, std::memory_order_relaxed);
    g_expose.insert(s, kFactWatched);
  });
}

// Expose: holds the thread at a stall point until its successor has run,
// at most expose_stall_ms, once per point and run, while no other thread
// is held.
void expose_stall_point(ThreadState &t, snag_site_t point) {
  SitePairs::Entry *e = g_expose.find(point, kFactStallFor);
  if (!e || __atomic_load_n(&e->count, __ATOMIC_RELAXED) != 0) return;
  // One hold at a time: a second held thread could be the very one the
  // first hold waits for (each would then only wait out its cap).
  if (g_stalling.load(std::memory_order_relaxed) != 0) return;
  if (__atomic_exchange_n(&e->count, 1, __ATOMIC_RELAXED) != 0) return;  // once
  SitePairs::Entry *successor = g_expose.find(e->extra.load(std::memory_order_relaxed), kFactWatched);
  if (!successor) return;
  RuntimeScope scope(&t);
  g_stalls.fetch_add(1, std::memory_order_relaxed);
  g_stalling.fetch_add(1, std::memory_order_relaxed);
  for (uint32_t waited = 0; waited < g_params.expose_stall_ms; ++waited) {
    if (successor->extra.load(std::memory_order_acquire)) break;  // it ran
    sleep_ms(1);
  }
  g_stalling.fetch_sub(1, std::memory_order_relaxed);
}

void expose_site_ran(snag_site_t site) {
  if (SitePairs::Entry *w = g_expose.find(site, kFactWatched)) w->extra.store(1, std::memory_order_release);
}

}  // namespace snag::guard
