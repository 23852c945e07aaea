#include "core/internal_alloc.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/platform.h"
#include "core/spinlock.h"

namespace snag {

void SpinLock::yield() { raw_syscall(SYS_sched_yield); }

namespace {

// Each block is preceded by a 16-byte header that records its size class, so
// free() knows where the block goes back. Classes are 16 B .. 64 KiB; larger
// blocks are mapped on their own and record their mapping size.
constexpr size_t kHeader = 16;
constexpr int kMinShift = 4;
constexpr int kMaxShift = 16;
constexpr int kClasses = kMaxShift - kMinShift + 1;
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

int class_for(size_t total) {
  int shift = kMinShift;
  while ((size_t(1) << shift) < total) ++shift;
  return shift - kMinShift;
}

}  // namespace

void *map_pages(size_t size) {
  size_t page = 4096;
  size = (size + page - 1) & ~(page - 1);
  // A raw system call: the runtime may intercept mmap itself, and its own
  // memory is none of the engines' business.
  long p = raw_syscall(SYS_mmap, 0, static_cast<long>(size), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p < 0 && p > -4096) fatal("out of memory (mmap failed in the runtime)");
  return reinterpret_cast<void *>(p);
}

void unmap_pages(void *ptr, size_t size) {
  size_t page = 4096;
  raw_syscall(SYS_munmap, reinterpret_cast<long>(ptr), static_cast<long>((size + page - 1) & ~(page - 1)));
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
  size_t block = size_t(1) << (cls + kMinShift);
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
                        : (size_t(1) << (h->size_or_class + kMinShift)) - kHeader;
  if (size <= old_size) return ptr;
  void *fresh = internal_alloc(size);
  copy_bytes(fresh, ptr, old_size);
  internal_free(ptr);
  return fresh;
}

void internal_alloc_lock_for_fork() { g_lock.lock(); }

void internal_alloc_unlock_after_fork(bool child) {
  if (child) g_lock.reset_after_fork();
  else g_lock.unlock();
}

}  // namespace snag
