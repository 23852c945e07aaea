#include "core/thread_state.h"

#include <errno.h>
#include <new>
#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/spinlock.h"

namespace snag {

SNAG_TLS ThreadState *t_current;

namespace {

// Two-level table indexed by tid: up to kChunks * kChunkSize threads over the
// life of the process, with no reallocation (readers need no lock).
constexpr uint32_t kChunkSize = 1024;
constexpr uint32_t kChunks = 4096;
std::atomic<ThreadState **> g_chunks[kChunks];
std::atomic<Tid> g_next_tid{0};
SpinLock g_lock;

// thread_by_handle's first guess: for each hash of a handle, the tid of the
// thread that last set a handle with that hash (0 at first: checked like
// any other). A join looked each thread up from the newest record down:
// with 100 threads joined oldest first, those scans were 5% of an explore
// schedule's own instructions. The guess is right when that thread holds
// the handle: a newer record with the same handle would have set its hash
// later, since two records share a handle only once the older thread has
// ended, after both of its sets (at creation and at its start).
// The hints sit at the start of the table's first chunk, on the page that
// every new thread of ids 0-383 writes its entry to anyway: a forked
// explore schedule pays no page fault for them (a page of their own cost
// one per schedule, 2-thread programs included). Null until the first
// record exists.
constexpr uint32_t kHandleHints = 256;
constexpr size_t kHintBytes = kHandleHints * sizeof(Tid);
std::atomic<std::atomic<Tid> *> g_handle_hints{nullptr};

uint32_t handle_hash(pthread_t handle) {
  // Descriptors sit at a page-aligned distance from their stack tops.
  auto h = static_cast<uint64_t>(handle);
  return static_cast<uint32_t>((h >> 12) ^ (h >> 22)) % kHandleHints;
}

// Records of joined threads, oldest first (a ring of kRetiredRecordsKept),
// and records taken out of the table for reuse. A record is never given
// back to the allocator: a report that looked an old id up just before its
// record was reused reads another thread's name, never freed memory.
ThreadState *g_retired[kRetiredRecordsKept];
uint32_t g_retired_count = 0;
uint32_t g_retired_oldest = 0;
ThreadState *g_reusable = nullptr;  // linked through engine_data[0]
SpinLock g_retire_lock;

void *record_memory() {
  {
    SpinLockGuard guard(g_retire_lock);
    if (ThreadState *reused = g_reusable) {
      g_reusable = static_cast<ThreadState *>(reused->engine_data[0]);
      reused->~ThreadState();
      return reused;
    }
  }
  return internal_alloc(sizeof(ThreadState));
}

ThreadState *new_record(Tid parent, StackId creation_stack) {
  Tid tid = g_next_tid.fetch_add(1, std::memory_order_relaxed);
  uint32_t c = tid / kChunkSize;
  if (c >= kChunks) fatal("too many threads over the life of the process");
  auto *state = new (record_memory()) ThreadState();
  state->tid = tid;
  state->parent = parent;
  state->creation_stack = creation_stack;
  ThreadState **chunk = g_chunks[c].load(std::memory_order_acquire);
  if (!chunk) {
    SpinLockGuard guard(g_lock);
    chunk = g_chunks[c].load(std::memory_order_relaxed);
    if (!chunk) {
      size_t hints = c == 0 ? kHintBytes : 0;
      char *memory = static_cast<char *>(map_pages(hints + sizeof(ThreadState *) * kChunkSize));
      if (hints) g_handle_hints.store(reinterpret_cast<std::atomic<Tid> *>(memory), std::memory_order_release);
      chunk = reinterpret_cast<ThreadState **>(memory + hints);
      g_chunks[c].store(chunk, std::memory_order_release);
    }
  }
  __atomic_store_n(&chunk[tid % kChunkSize], state, __ATOMIC_RELEASE);
  return state;
}

}  // namespace

ThreadState *thread_create_record(Tid parent, StackId creation_stack) {
  return new_record(parent, creation_stack);
}

void thread_attach(ThreadState *state) {
  state->kernel_tid = static_cast<int>(raw_syscall(SYS_gettid));
  state->shadow.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  state->shadow.depth = 0;
  thread_set_handle(state, pthread_self());
  state->running.store(true, std::memory_order_release);
  t_current = state;
}

ThreadState *thread_adopt_current() {
  Tid parent = g_next_tid.load(std::memory_order_relaxed) == 0 ? kNoThread : 0;
  ThreadState *state = new_record(parent, 0);
  thread_attach(state);
  return state;
}

void thread_detach_current() {
  ThreadState *t = t_current;
  if (!t) return;
  t->running.store(false, std::memory_order_release);
  // The thread may still run instrumented code (TLS destructors) after this,
  // so it keeps its record; only the shadow stack goes. A depth far beyond
  // the capacity makes push() and capture_stack() leave the frames alone.
  ShadowFrame *frames = t->shadow.frames;
  t->shadow.depth = ShadowStack::kRetired;
  t->shadow.frames = nullptr;
  internal_free(frames);
}

void thread_retire(ThreadState *t) {
  if (!t || t->running.load(std::memory_order_acquire)) return;
  for (void *data : t->engine_data)
    if (data) return;
  SpinLockGuard guard(g_retire_lock);
  if (g_retired_count < kRetiredRecordsKept) {
    g_retired[(g_retired_oldest + g_retired_count++) % kRetiredRecordsKept] = t;
    return;
  }
  // The ring is full: its oldest record leaves the table for reuse, and t
  // takes its place as the newest.
  ThreadState *oldest = g_retired[g_retired_oldest];
  g_retired[g_retired_oldest] = t;
  g_retired_oldest = (g_retired_oldest + 1) % kRetiredRecordsKept;
  ThreadState **chunk = g_chunks[oldest->tid / kChunkSize].load(std::memory_order_acquire);
  __atomic_store_n(&chunk[oldest->tid % kChunkSize], static_cast<ThreadState *>(nullptr), __ATOMIC_RELEASE);
  oldest->engine_data[0] = g_reusable;
  g_reusable = oldest;
}

namespace {

// Detached threads that ended, newest first, until their kernel threads are
// gone. The count lets thread_take_gone return at once when there are none.
ThreadState *g_ending = nullptr;
std::atomic<uint32_t> g_ending_count{0};
SpinLock g_ending_lock;

// True once the kernel thread `kernel_tid` of this process has exited. A
// thread of the same id made since (ids wrap) only delays the answer.
bool kernel_thread_gone(int kernel_tid) {
  return raw_syscall(SYS_tgkill, raw_syscall(SYS_getpid), kernel_tid, 0) == -1 && errno == ESRCH;
}

}  // namespace

void thread_note_end(ThreadState *t, EndMark mark) {
  constexpr uint8_t kBoth = kEnded | kDetachedForGood;
  const uint8_t before = t->end_marks.fetch_or(mark, std::memory_order_acq_rel);
  if (before == kBoth || (before | mark) != kBoth) return;  // queued by the other note, or not both yet
  SpinLockGuard guard(g_ending_lock);
  t->next_ending = g_ending;
  g_ending = t;
  g_ending_count.fetch_add(1, std::memory_order_release);
}

ThreadState *thread_take_gone() {
  if (g_ending_count.load(std::memory_order_acquire) == 0) return nullptr;
  SpinLockGuard guard(g_ending_lock);
  for (ThreadState **link = &g_ending; *link; link = &(*link)->next_ending) {
    ThreadState *t = *link;
    if (t->kernel_tid && !kernel_thread_gone(t->kernel_tid)) continue;
    *link = t->next_ending;
    t->next_ending = nullptr;
    g_ending_count.fetch_sub(1, std::memory_order_relaxed);
    return t;
  }
  return nullptr;
}

ThreadState *thread_by_tid(Tid tid) {
  uint32_t c = tid / kChunkSize;
  if (c >= kChunks) return nullptr;
  ThreadState **chunk = g_chunks[c].load(std::memory_order_acquire);
  if (!chunk) return nullptr;
  return __atomic_load_n(&chunk[tid % kChunkSize], __ATOMIC_ACQUIRE);
}

void thread_set_handle(ThreadState *t, pthread_t handle) {
  t->handle.store(handle, std::memory_order_release);
  // t has a record, so the first chunk and its hints exist.
  g_handle_hints.load(std::memory_order_acquire)[handle_hash(handle)].store(t->tid, std::memory_order_release);
}

ThreadState *thread_by_handle(pthread_t handle) {
  if (std::atomic<Tid> *hints = g_handle_hints.load(std::memory_order_acquire)) {
    Tid hint = hints[handle_hash(handle)].load(std::memory_order_acquire);
    if (ThreadState *t = thread_by_tid(hint); t && t->handle.load(std::memory_order_acquire) == handle)
      return t;
  }
  // Newest first: handles are reused, and the newest holder is the live one.
  for (Tid tid = thread_count(); tid-- > 0;) {
    ThreadState *t = thread_by_tid(tid);
    if (t && t->handle.load(std::memory_order_acquire) == handle) return t;
  }
  return nullptr;
}

Tid thread_count() { return g_next_tid.load(std::memory_order_acquire); }

void threads_after_fork_child() {
  for (Tid tid = 0; tid < thread_count(); ++tid) {
    ThreadState *t = thread_by_tid(tid);
    if (t && t != t_current) t->running.store(false, std::memory_order_relaxed);
  }
}

}  // namespace snag
