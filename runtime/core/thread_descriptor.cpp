#include "core/thread_descriptor.h"

#include <pthread.h>

#include <atomic>

#include "core/platform.h"

namespace snag {

namespace {

// Byte offset of stackblock in the descriptor; -1 while not known.
std::atomic<long> g_offset{-1};
// Learning is tried on this many threads at most: a glibc whose descriptor
// does not hold the words pays the search only on its first threads.
constexpr int kLearningTries = 8;
std::atomic<int> g_tries{0};
// Bytes of the descriptor searched (glibc 2.36's struct pthread: 2,304).
constexpr size_t kDescriptorBytes = 4096;

struct StackWords {
  uintptr_t block, block_size, guard;
};

StackWords read_words(const unsigned char *at) {
  StackWords w;
  __builtin_memcpy(&w, at, sizeof w);
  return w;
}

bool from_library(uintptr_t *begin, size_t *size) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return false;
  void *addr = nullptr;
  size_t bytes = 0;
  const bool known = pthread_attr_getstack(&attr, &addr, &bytes) == 0 && addr;
  pthread_attr_destroy(&attr);
  if (!known) return false;
  *begin = reinterpret_cast<uintptr_t>(addr);
  *size = bytes;
  return true;
}

}  // namespace

long find_stack_words(const unsigned char *descriptor, size_t readable, uintptr_t begin, size_t size) {
  for (size_t off = 0; off + sizeof(StackWords) <= readable; off += sizeof(uintptr_t)) {
    const StackWords w = read_words(descriptor + off);
    // stackblock + guardsize is the stack's bottom; stackblock_size less the
    // guard its size (pthread_getattr_np's arithmetic).
    if (w.block != 0 && w.guard < w.block_size && w.block + w.guard == begin && w.block_size - w.guard == size)
      return static_cast<long>(off);
  }
  return -1;
}

long thread_stack_descriptor_offset() { return g_offset.load(std::memory_order_relaxed); }

bool current_thread_stack(uintptr_t *begin, size_t *size) {
  const auto *descriptor = reinterpret_cast<const unsigned char *>(pthread_self());
  const uintptr_t sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const long off = g_offset.load(std::memory_order_relaxed);
  if (SNAG_LIKELY(off >= 0)) {
    const StackWords w = read_words(descriptor + off);
    const uintptr_t bottom = w.block + w.guard;
    if (w.block != 0 && w.guard < w.block_size && bottom <= sp && sp - bottom < w.block_size - w.guard) {
      *begin = bottom;
      *size = w.block_size - w.guard;
      return true;
    }
    return from_library(begin, size);  // not this process's layout after all, or the main thread
  }
  if (!from_library(begin, size)) return false;
  // Learn where the words are, on a thread whose descriptor lies inside its
  // stack block (glibc's threads), searching only what lies below the top.
  const uintptr_t top = *begin + *size;
  const auto at = reinterpret_cast<uintptr_t>(descriptor);
  if (at >= *begin && at < top && g_tries.fetch_add(1, std::memory_order_relaxed) < kLearningTries) {
    const size_t readable = top - at < kDescriptorBytes ? top - at : kDescriptorBytes;
    const long found = find_stack_words(descriptor, readable, *begin, *size);
    if (found >= 0) g_offset.store(found, std::memory_order_relaxed);
  }
  return true;
}

}  // namespace snag
