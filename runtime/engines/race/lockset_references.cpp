#include "engines/race/lockset_references.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "engines/race/lock_pairs.h"
#include "engines/race/lockset.h"
#include "engines/race/shadow.h"
#include "engines/race/state.h"

namespace snag::race {

namespace {

struct Search {
  uint32_t pairs;
  uint64_t *named;
  size_t read = 0;  // bytes
};

static_assert(kFirstLockPair == 1u << 23 && kLocksetIdBits == 24, "a pair's id is the ids with bit 23 set");

SNAG_ALWAYS_INLINE void note(const Search &s, uint32_t word) {
  const uint32_t id = word & ((1u << kLocksetIdBits) - 1);
  if (id < kFirstLockPair) return;
  const uint32_t pair = id - kFirstLockPair;
  if (pair < s.pairs) s.named[pair / 64] |= uint64_t(1) << (pair % 64);
}

// Calls f(page) for each page of [begin, begin + size) (page-aligned) that
// is in memory. Pages never touched read as zeros and name nothing.
template <typename F>
void for_each_resident_page(uintptr_t begin, uintptr_t size, F f) {
  constexpr uintptr_t kBatch = 1024;  // pages per mincore call
  unsigned char resident[kBatch];
  for (uintptr_t done = 0; done < size; done += kBatch * kPageSize) {
    const uintptr_t bytes = size - done < kBatch * kPageSize ? size - done : kBatch * kPageSize;
    const uintptr_t from = begin + done;
    if (raw_syscall(SYS_mincore, static_cast<long>(from), static_cast<long>(bytes), reinterpret_cast<long>(resident)) != 0)
      continue;  // not mapped (the caller's ranges are, but be safe)
    for (uintptr_t i = 0; i < (bytes + kPageSize - 1) / kPageSize; ++i)
      if (resident[i] & 1) f(from + i * kPageSize);
  }
}

void search_runtime_range(void *context, const char *begin, size_t size) {
  Search &s = *static_cast<Search *>(context);
  const uintptr_t from = reinterpret_cast<uintptr_t>(begin);
  for_each_resident_page(from, size, [&](uintptr_t page) {
    s.read += kPageSize;
    // A pair's id has bit 23 set (2^23 <= id < 2^24): two words at a time,
    // most are passed over with one test.
    const auto *words = reinterpret_cast<const uint64_t *>(page);
    for (uint32_t i = 0; i < kPageSize / sizeof(uint64_t); ++i) {
      const uint64_t two = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
      if (!(two & 0x0080000000800000ull)) continue;
      note(s, static_cast<uint32_t>(two));
      note(s, static_cast<uint32_t>(two >> 32));
    }
  });
}

// Whether [begin, end) lies in a slot's shadow (a reservation the maps list
// shows like any mapping; its own shadow is not the program's).
bool inside_shadow(uintptr_t begin, uintptr_t end) {
  constexpr uintptr_t kSlotSize = uintptr_t(1) << detail::kSlotBits;
  for (uintptr_t slot = 0; slot < detail::kSlotCount; ++slot) {
    const uintptr_t offset = detail::g_slot_offset[slot].load(std::memory_order_acquire);
    if (!offset) continue;
    const uintptr_t shadow = slot * kSlotSize + offset;
    if (begin < shadow + kSlotSize && end > shadow) return true;
  }
  return false;
}

// The state words of the program's range [begin, end): a Shared-Read or
// Shared-Modify1 word holds the variable's lockset.
void search_shadow_of(Search &s, uintptr_t begin, uintptr_t end) {
  constexpr uintptr_t kSlotSize = uintptr_t(1) << detail::kSlotBits;
  if (end > (uintptr_t(1) << 47) || begin >= end || inside_shadow(begin, end)) return;
  for (uintptr_t at = begin; at < end;) {
    const uintptr_t slot = at >> detail::kSlotBits;
    const uintptr_t slot_end = (slot + 1) * kSlotSize;
    const uintptr_t upto = end < slot_end ? end : slot_end;
    const uintptr_t offset = detail::g_slot_offset[slot].load(std::memory_order_acquire);
    if (offset)
      for_each_resident_page(at + offset, upto - at, [&](uintptr_t page) {
        s.read += kPageSize;
        const auto *words = reinterpret_cast<const std::atomic<uint64_t> *>(page);
        for (uint32_t i = 0; i < kCellsPerPage; ++i) {
          const uint64_t w = words[i].load(std::memory_order_relaxed);
          const Kind k = kind_of(w);
          if (k == Kind::kSharedRead || k == Kind::kSharedModify1) note(s, lockset_of(w));
        }
      });
    at = upto;
  }
}

bool hex_digit(char c, uintptr_t *value) {
  if (c >= '0' && c <= '9') *value = *value * 16 + uintptr_t(c - '0');
  else if (c >= 'a' && c <= 'f') *value = *value * 16 + uintptr_t(c - 'a' + 10);
  else return false;
  return true;
}

// One line of /proc/self/maps: "begin-end perms ...".
void search_maps_line(Search &s, const char *line, size_t len) {
  uintptr_t begin = 0, end = 0;
  size_t i = 0;
  while (i < len && hex_digit(line[i], &begin)) ++i;
  if (i == len || line[i] != '-') return;
  ++i;
  while (i < len && hex_digit(line[i], &end)) ++i;
  search_shadow_of(s, begin, end);
}

// False when the program's mappings cannot be read (no descriptor left, a
// sandbox): then the state words were not searched.
bool search_shadow(Search &s) {
  const long fd = raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/maps"), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[4096];
  size_t held = 0;
  bool rest_of_line = false;  // the buffer starts inside a line already read
  for (;;) {
    const long got = raw_syscall(SYS_read, fd, reinterpret_cast<long>(buffer + held), static_cast<long>(sizeof(buffer) - held));
    if (got == -EINTR) continue;
    if (got < 0) {
      raw_syscall(SYS_close, fd);
      return false;
    }
    if (got == 0) break;
    held += size_t(got);
    size_t start = 0;
    for (size_t i = 0; i < held; ++i)
      if (buffer[i] == '\n') {
        if (!rest_of_line) search_maps_line(s, buffer + start, i - start);
        rest_of_line = false;
        start = i + 1;
      }
    if (start == 0 && held == sizeof(buffer)) {
      // A line longer than the buffer (a long path): its range is at its
      // start; the rest of it is skipped.
      if (!rest_of_line) search_maps_line(s, buffer, held);
      rest_of_line = true;
      held = 0;
      continue;
    }
    copy_bytes(buffer, buffer + start, held - start);
    held -= start;
  }
  raw_syscall(SYS_close, fd);
  return true;
}

}  // namespace

size_t find_named_lock_pairs(uint32_t pairs, uint64_t *named) {
  Search s{pairs, named};
  if (!search_shadow(s)) return kLockPairSearchFailed;
  for_each_runtime_mapping(search_runtime_range, &s);
  return s.read;
}

}  // namespace snag::race
