#include "core/internal_alloc.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/platform.h"
#include "core/spinlock.h"

namespace snag {

void SpinLock::yield() { raw_syscall(SYS_sched_yield); }

std::atomic<uint16_t> g_fork_generation{1};

void fork_generation_advance() {
  uint16_t next = static_cast<uint16_t>(g_fork_generation.load(std::memory_order_relaxed) + 1);
  g_fork_generation.store(next == 0 ? 1 : next, std::memory_order_relaxed);
}

namespace {

// Each block is preceded by a 16-byte header that records its size class, so
// free() knows where the block goes back. Classes go in 16-byte steps up to
// 256 bytes, then four per doubling (a quarter apart) up to 64 KiB; larger
// blocks are mapped on their own and record their mapping size. The runtime's
// many records (heap blocks, threads, synchronization variables) land within
// 16 bytes of their size: with power-of-two classes a 168-byte heap-block
// record took 256 bytes, and a program with 70,000 small live heap blocks
// paid 6 MB for the rounding alone.
constexpr size_t kHeader = 16;
constexpr size_t kSmallStep = 16;
constexpr size_t kSmallLimit = 256;
constexpr int kSmallClasses = kSmallLimit / kSmallStep;
constexpr int kStepsPerDoubling = 4;
constexpr int kSmallLimitShift = 8;  // log2(kSmallLimit)
constexpr int kMaxShift = 16;
constexpr int kClasses = kSmallClasses + (kMaxShift - kSmallLimitShift) * kStepsPerDoubling;
constexpr size_t kRefill = 1 << 20;  // bytes carved from one mmap per refill
constexpr uint64_t kLargeClass = ~uint64_t(0);

struct Header {
  uint64_t size_or_class;
  uint64_t magic;
};
constexpr uint64_t kMagic = 0x736e6167616c6c63ull;  // "snagallc"

struct FreeBlock {
  FreeBlock *next;
};

SpinLock g_lock;
FreeBlock *g_free[kClasses];
char *g_chunk_cursor;
char *g_chunk_end;

// Bytes of a block of class `cls`, header included.
size_t class_size(int cls) {
  if (cls < kSmallClasses) return size_t(cls + 1) * kSmallStep;
  int above = cls - kSmallClasses;
  size_t base = size_t(1) << (kSmallLimitShift + above / kStepsPerDoubling);
  return base + base / kStepsPerDoubling * (above % kStepsPerDoubling + 1);
}

// The smallest class holding `total` bytes (header included, at most 64 KiB).
int class_for(size_t total) {
  if (total <= kSmallLimit) return total <= kSmallStep ? 0 : int((total + kSmallStep - 1) / kSmallStep) - 1;
  int shift = kSmallLimitShift;
  while ((size_t(2) << shift) < total) ++shift;  // 2^shift < total <= 2^(shift+1)
  size_t quarter = (size_t(1) << shift) / kStepsPerDoubling;
  int steps = int((total - (size_t(1) << shift) + quarter - 1) / quarter);  // 1..4
  return kSmallClasses + (shift - kSmallLimitShift) * kStepsPerDoubling + steps - 1;
}

// The ranges map_pages gave out, less what unmap_pages took back: an array
// of its own mapping (not map_pages', which records into it), doubled when
// full. A range unmapped in its middle leaves two.
struct MappedRange {
  uintptr_t begin, end;
};
SpinLock g_ranges_lock;
MappedRange *g_ranges;
size_t g_range_count;
size_t g_range_capacity;

long raw_map(size_t size) {
  return raw_syscall(SYS_mmap, 0, static_cast<long>(size), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

// Under g_ranges_lock.
void add_range(uintptr_t begin, uintptr_t end) {
  if (g_range_count == g_range_capacity) {
    const size_t capacity = g_range_capacity ? 2 * g_range_capacity : 512;
    long p = raw_map(sizeof(MappedRange) * capacity);
    if (p < 0 && p > -4096) fatal("out of memory (mmap failed in the runtime)");
    auto *grown = reinterpret_cast<MappedRange *>(p);
    copy_bytes(grown, g_ranges, sizeof(MappedRange) * g_range_count);
    if (g_ranges) raw_syscall(SYS_munmap, reinterpret_cast<long>(g_ranges), static_cast<long>(sizeof(MappedRange) * g_range_capacity));
    g_ranges = grown;
    g_range_capacity = capacity;
  }
  g_ranges[g_range_count++] = {begin, end};
}

// Under g_ranges_lock: [begin, end) is no longer the runtime's.
void remove_range(uintptr_t begin, uintptr_t end) {
  for (size_t i = 0; i < g_range_count;) {
    MappedRange r = g_ranges[i];
    if (r.end <= begin || r.begin >= end) {
      ++i;
      continue;
    }
    g_ranges[i] = g_ranges[--g_range_count];  // visited again below if it was moved
    if (r.begin < begin) add_range(r.begin, begin);
    if (r.end > end) add_range(end, r.end);
  }
}

}  // namespace

void *map_pages_unvisited(size_t size) {
  size_t page = 4096;
  size = (size + page - 1) & ~(page - 1);
  long p = raw_map(size);
  if (p < 0 && p > -4096) fatal("out of memory (mmap failed in the runtime)");
  return reinterpret_cast<void *>(p);
}

void *map_pages(size_t size) {
  size_t page = 4096;
  size = (size + page - 1) & ~(page - 1);
  // A raw system call: the runtime may intercept mmap itself, and its own
  // memory is none of the engines' business.
  long p = raw_syscall(SYS_mmap, 0, static_cast<long>(size), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p < 0 && p > -4096) fatal("out of memory (mmap failed in the runtime)");
  SpinLockGuard guard(g_ranges_lock);
  add_range(uintptr_t(p), uintptr_t(p) + size);
  return reinterpret_cast<void *>(p);
}

void unmap_pages(void *ptr, size_t size) {
  size_t page = 4096;
  size = (size + page - 1) & ~(page - 1);
  SpinLockGuard guard(g_ranges_lock);
  remove_range(reinterpret_cast<uintptr_t>(ptr), reinterpret_cast<uintptr_t>(ptr) + size);
  raw_syscall(SYS_munmap, reinterpret_cast<long>(ptr), static_cast<long>(size));
}

void for_each_runtime_mapping(void (*visit)(void *context, const char *begin, size_t size), void *context) {
  SpinLockGuard guard(g_ranges_lock);
  for (size_t i = 0; i < g_range_count; ++i)
    visit(context, reinterpret_cast<const char *>(g_ranges[i].begin), g_ranges[i].end - g_ranges[i].begin);
}

void *internal_alloc(size_t size) {
  size_t total = size + kHeader;
  if (total > (size_t(1) << kMaxShift)) {
    auto *h = static_cast<Header *>(map_pages(total));
    h->size_or_class = kLargeClass;
    h->magic = total;  // large blocks keep their mapping size in place of the magic
    return reinterpret_cast<char *>(h) + kHeader;
  }
  int cls = class_for(total);
  size_t block = class_size(cls);
  Header *h;
  bool reused = false;
  {
    SpinLockGuard guard(g_lock);
    if (FreeBlock *f = g_free[cls]) {
      g_free[cls] = f->next;
      h = reinterpret_cast<Header *>(f);
      reused = true;
    } else {
      if (g_chunk_cursor == nullptr || size_t(g_chunk_end - g_chunk_cursor) < block) {
        g_chunk_cursor = static_cast<char *>(map_pages(kRefill));
        g_chunk_end = g_chunk_cursor + kRefill;
      }
      h = reinterpret_cast<Header *>(g_chunk_cursor);
      g_chunk_cursor += block;
    }
  }
  // A block carved from a chunk was never written: the fresh mapping is zero
  // already, and the pages the caller does not touch stay unmapped (a forked
  // explore schedule pays a page fault per page it touches). A reused block
  // is zeroed whole, as every block was before.
  if (reused) fill_bytes(h, 0, block);
  h->size_or_class = static_cast<uint64_t>(cls);
  h->magic = kMagic;
  return reinterpret_cast<char *>(h) + kHeader;
}

void internal_free(void *ptr) {
  if (!ptr) return;
  auto *h = reinterpret_cast<Header *>(static_cast<char *>(ptr) - kHeader);
  if (h->size_or_class == kLargeClass) {
    unmap_pages(h, h->magic);
    return;
  }
  if (h->magic != kMagic) fatal("internal allocator: freeing a block it does not own");
  int cls = static_cast<int>(h->size_or_class);
  h->magic = 0;
  auto *f = reinterpret_cast<FreeBlock *>(h);
  SpinLockGuard guard(g_lock);
  f->next = g_free[cls];
  g_free[cls] = f;
}

void *internal_realloc(void *ptr, size_t size) {
  if (!ptr) return internal_alloc(size);
  auto *h = reinterpret_cast<Header *>(static_cast<char *>(ptr) - kHeader);
  size_t old_size = h->size_or_class == kLargeClass
                        ? h->magic - kHeader
                        : class_size(static_cast<int>(h->size_or_class)) - kHeader;
  if (size <= old_size) return ptr;
  void *fresh = internal_alloc(size);
  copy_bytes(fresh, ptr, old_size);
  internal_free(ptr);
  return fresh;
}

void internal_alloc_lock_for_fork() { g_lock.lock(); }

void internal_alloc_unlock_after_fork() { g_lock.unlock(); }

}  // namespace snag
