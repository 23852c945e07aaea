#include "engines/explore/variables.h"

#include "core/internal_alloc.h"
#include "core/spinlock.h"
#include "engines/explore/mix.h"

namespace snag::explore {

namespace {

constexpr uint64_t kHeapInstanceTag = uint64_t(2) << 62;
constexpr uint64_t kHeapSiteTag = uint64_t(3) << 62;
constexpr uint64_t kTagMask = uint64_t(3) << 62;
constexpr uintptr_t kPage = 4096;
constexpr uint32_t kBuckets = 1u << 16;
constexpr uint32_t kSiteSlots = 1u << 14;

struct HeapBlock {
  uintptr_t start;
  uintptr_t size;
  uint64_t instance_key;
  uint64_t site_key;
  HeapBlock *next;
};

// Blocks by the page their first byte is on. A block of at most one page
// starts on the page of the address or the one before; larger blocks are
// few, and live in their own list.
HeapBlock *g_by_page[kBuckets];
HeapBlock *g_large;
// Blocks allocated so far per allocation site (open addressing).
struct SiteCount {
  uint64_t site;
  uint64_t count;
} g_site_counts[kSiteSlots];
// Noted shared, in the order noted (few: a linear search is enough).
uint64_t g_shared[kMaxSharedVariables];
uint32_t g_shared_count = 0;
// Threads outside the scheduler's control (before the first thread is
// created there is only one; after it, one at a time) may still allocate.
SpinLock g_lock;

// The page number itself, not a hash of it: consecutive heap pages share a
// page of the table, and a forked schedule that allocates a few blocks
// page-faults on one page of it rather than on one page each.
uint32_t bucket(uintptr_t page) { return static_cast<uint32_t>(page) & (kBuckets - 1); }

uint64_t next_ordinal(snag_site_t site) {
  uint32_t slot = static_cast<uint32_t>(mix64(site)) & (kSiteSlots - 1);
  for (uint32_t probe = 0; probe < kSiteSlots; ++probe, slot = (slot + 1) & (kSiteSlots - 1)) {
    SiteCount &s = g_site_counts[slot];
    if (s.count == 0) s.site = site;
    if (s.site == site) return s.count++;
  }
  return 0;
}

bool contains(const HeapBlock *b, uintptr_t addr) {
  return addr >= b->start && addr - b->start < b->size;
}

HeapBlock *find(uintptr_t addr) {
  uintptr_t page = addr / kPage;
  for (uintptr_t p : {page, page - 1}) {
    for (HeapBlock *b = g_by_page[bucket(p)]; b; b = b->next)
      if (contains(b, addr)) return b;
  }
  for (HeapBlock *b = g_large; b; b = b->next)
    if (contains(b, addr)) return b;
  return nullptr;
}

}  // namespace

VariableKind variable_kind(uint64_t key) {
  switch (key & kTagMask) {
    case kHeapInstanceTag: return VariableKind::kHeapInstance;
    case kHeapSiteTag: return VariableKind::kHeapSite;
    default: return VariableKind::kGlobal;
  }
}

void variable_keys(uintptr_t addr, uint64_t *instance, uint64_t *site) {
  SpinLockGuard guard(g_lock);
  if (HeapBlock *b = find(addr)) {
    *instance = b->instance_key;
    *site = b->site_key;
    return;
  }
  *instance = *site = (addr & ~uintptr_t(7)) & ~kTagMask;
}

void note_shared_variable(uint64_t key) {
  if (is_shared_variable(key) || g_shared_count == kMaxSharedVariables) return;
  g_shared[g_shared_count++] = key;
}

bool is_shared_variable(uint64_t key) {
  for (uint32_t i = 0; i < g_shared_count; ++i)
    if (g_shared[i] == key) return true;
  return false;
}

uint32_t shared_variable_count() { return g_shared_count; }
uint64_t shared_variable(uint32_t i) { return g_shared[i]; }

bool in_shared_variable(uintptr_t addr) {
  if (g_shared_count == 0) return false;
  uint64_t instance, site;
  variable_keys(addr, &instance, &site);
  return is_shared_variable(instance) || is_shared_variable(site);
}

void heap_block_allocated(uintptr_t start, uintptr_t size, snag_site_t site) {
  auto *b = static_cast<HeapBlock *>(internal_alloc(sizeof(HeapBlock)));
  SpinLockGuard guard(g_lock);
  uint64_t ordinal = next_ordinal(site);
  b->start = start;
  b->size = size ? size : 1;
  b->site_key = (mix64(site) & ~kTagMask) | kHeapSiteTag;
  b->instance_key = (mix64(site ^ mix64(ordinal + 1)) & ~kTagMask) | kHeapInstanceTag;
  HeapBlock **head = b->size <= kPage ? &g_by_page[bucket(start / kPage)] : &g_large;
  b->next = *head;
  *head = b;
}

void heap_block_freed(uintptr_t start) {
  HeapBlock *gone = nullptr;
  {
    SpinLockGuard guard(g_lock);
    for (HeapBlock **head : {&g_by_page[bucket(start / kPage)], &g_large}) {
      for (HeapBlock **link = head; *link; link = &(*link)->next) {
        if ((*link)->start == start) {
          gone = *link;
          *link = gone->next;
          break;
        }
      }
      if (gone) break;
    }
  }
  internal_free(gone);
}

}  // namespace snag::explore
