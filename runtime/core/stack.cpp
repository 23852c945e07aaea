#include "core/stack.h"

#include <atomic>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag {

void capture_stack(const ShadowStack &shadow, snag_site_t top, StackTrace *out) {
  out->depth = 0;
  if (top != 0) out->frames[out->depth++] = top;
  if (!shadow.frames) return;
  uint32_t depth = shadow.depth < ShadowStack::kCapacity ? shadow.depth : ShadowStack::kCapacity;
  for (uint32_t i = depth; i-- > 0 && out->depth < kMaxStackFrames;) {
    snag_site_t site = shadow.frames[i].call_site;
    if (site != 0) out->frames[out->depth++] = site;
  }
}

namespace {

// Depot: a fixed hash table of bucket chains. Nodes are never freed. Ids are
// indices into a two-level node table so they fit in 32 bits.
struct Node {
  Node *next;
  uint64_t hash;
  StackId id;
  uint32_t depth;
  snag_site_t frames[1];  // `depth` entries
};

constexpr uint32_t kBuckets = 1 << 16;
constexpr uint32_t kChunk = 1 << 14;
constexpr uint32_t kChunks = 1 << 14;

std::atomic<Node *> g_buckets[kBuckets];
std::atomic<Node **> g_chunks[kChunks];
std::atomic<uint32_t> g_next_id{1};
SpinLock g_chunk_lock;
void (*g_addition_observer)(const StackTrace &);

uint64_t hash_trace(const StackTrace &t) {
  uint64_t h = 1469598103934665603ull ^ t.depth;
  for (uint32_t i = 0; i < t.depth; ++i) h = (h ^ t.frames[i]) * 1099511628211ull;
  return h;
}

// A node is linked into its bucket before it gets its id (ids are taken
// after the insertion won); a reader that finds it waits for the id.
StackId id_of(const Node *n) {
  StackId id;
  while ((id = __atomic_load_n(&n->id, __ATOMIC_ACQUIRE)) == 0) {
  }
  return id;
}

bool same(const Node *n, uint64_t hash, const StackTrace &t) {
  if (n->hash != hash || n->depth != t.depth) return false;
  for (uint32_t i = 0; i < t.depth; ++i)
    if (n->frames[i] != t.frames[i]) return false;
  return true;
}

Node **chunk_for(uint32_t id) {
  uint32_t c = id / kChunk;
  if (c >= kChunks) return nullptr;
  Node **chunk = g_chunks[c].load(std::memory_order_acquire);
  if (chunk) return chunk;
  SpinLockGuard guard(g_chunk_lock);
  chunk = g_chunks[c].load(std::memory_order_relaxed);
  if (!chunk) {
    // Pointers, no lockset ids: not searched by the race engine (internal_alloc.h).
    chunk = static_cast<Node **>(map_pages_unvisited(sizeof(Node *) * kChunk));
    g_chunks[c].store(chunk, std::memory_order_release);
  }
  return chunk;
}

}  // namespace

StackId depot_put(const StackTrace &trace) {
  if (trace.depth == 0) return 0;
  uint64_t hash = hash_trace(trace);
  std::atomic<Node *> &bucket = g_buckets[hash % kBuckets];
  Node *head = bucket.load(std::memory_order_acquire);
  for (Node *n = head; n; n = n->next)
    if (same(n, hash, trace)) return id_of(n);
  auto *node = static_cast<Node *>(
      internal_alloc(sizeof(Node) + sizeof(snag_site_t) * (trace.depth - 1)));
  node->hash = hash;
  node->depth = trace.depth;
  copy_bytes(node->frames, trace.frames, sizeof(snag_site_t) * trace.depth);
  node->id = 0;
  for (;;) {
    node->next = head;
    if (bucket.compare_exchange_weak(head, node, std::memory_order_acq_rel)) break;
    // Someone else inserted: the same trace may be there now.
    for (Node *n = head; n && n != node->next; n = n->next)
      if (same(n, hash, trace)) {
        internal_free(node);
        return id_of(n);
      }
  }
  uint32_t id = g_next_id.fetch_add(1, std::memory_order_relaxed);
  if (Node **chunk = chunk_for(id)) __atomic_store_n(&chunk[id % kChunk], node, __ATOMIC_RELEASE);
  __atomic_store_n(&node->id, id, __ATOMIC_RELEASE);
  if (g_addition_observer) g_addition_observer(trace);
  return id;
}

void depot_observe_additions(void (*observer)(const StackTrace &)) { g_addition_observer = observer; }

void depot_get(StackId id, StackTrace *out) {
  out->depth = 0;
  if (id == 0) return;
  Node **chunk = chunk_for(id);
  if (!chunk) return;
  Node *n = __atomic_load_n(&chunk[id % kChunk], __ATOMIC_ACQUIRE);
  if (!n) return;
  out->depth = n->depth < kMaxStackFrames ? n->depth : kMaxStackFrames;
  copy_bytes(out->frames, n->frames, sizeof(snag_site_t) * out->depth);
}

bool depot_holds(StackId id, const ShadowStack &shadow, snag_site_t top) {
  if (id == 0) return false;
  Node **chunk = chunk_for(id);
  const Node *n = chunk ? __atomic_load_n(&chunk[id % kChunk], __ATOMIC_ACQUIRE) : nullptr;
  if (!n) return false;
  // The frames in the order capture_stack copies them.
  uint32_t k = 0;
  if (top != 0) {
    if (n->depth == 0 || n->frames[0] != top) return false;
    k = 1;
  }
  if (shadow.frames) {
    uint32_t depth = shadow.depth < ShadowStack::kCapacity ? shadow.depth : ShadowStack::kCapacity;
    for (uint32_t i = depth; i-- > 0 && k < kMaxStackFrames;) {
      snag_site_t site = shadow.frames[i].call_site;
      if (site == 0) continue;
      if (k >= n->depth || n->frames[k] != site) return false;
      ++k;
    }
  }
  return k == n->depth;
}

}  // namespace snag
