#include "engines/race/lockset_references.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "engines/race/lock_pairs.h"
#include "engines/race/lockset.h"
#include "engines/race/shadow.h"
#include "engines/race/state.h"

namespace snag::race {

namespace {

struct Search {
  uint32_t pairs = 0;
  uint64_t *named = nullptr;
  size_t read = 0;  // bytes
  // The slots' shadow reservations (their first addresses), gathered once
  // per search: asking every slot for every line of the maps took a tenth
  // of a search (race_bench.txt section 93).
  uintptr_t shadows[detail::kSlotCount];
  uint32_t shadow_count = 0;
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
    // Eight pages' bytes at a time: most of a large range (the runtime's
    // reserved chunks, their shadow) is not in memory.
    const uintptr_t pages = (bytes + kPageSize - 1) / kPageSize;
    for (uintptr_t i = 0; i < pages; i += 8) {
      if (i + 8 <= pages) {
        uint64_t eight;
        __builtin_memcpy(&eight, resident + i, sizeof eight);
        if (!(eight & 0x0101010101010101ull)) continue;
      }
      for (uintptr_t k = i; k < i + 8 && k < pages; ++k)
        if (resident[k] & 1) f(from + k * kPageSize);
    }
  }
}

void search_runtime_range(void *context, const char *begin, size_t size) {
  Search &s = *static_cast<Search *>(context);
  const uintptr_t from = reinterpret_cast<uintptr_t>(begin);
  for_each_resident_page(from, size, [&](uintptr_t page) {
    s.read += kPageSize;
    // A pair's id has bit 23 set (2^23 <= id < 2^24).
#if defined(__SSE2__)
    // Four words at a time: each one's bit 23 shifted to its sign, the four
    // signs taken as a mask, and only the words whose bit is set looked at
    // (half the instructions of two words at a time, race_bench.txt
    // section 93; the value read may have changed in between, which only
    // keeps or drops a pair as the word's racing writer could).
    const auto *vectors = reinterpret_cast<const __m128i *>(page);
    const auto *words = reinterpret_cast<const uint32_t *>(page);
    for (uint32_t v = 0; v < kPageSize / sizeof(__m128i); ++v) {
      int hits = _mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(_mm_load_si128(vectors + v), 8)));
      while (hits) {
        note(s, __atomic_load_n(&words[v * 4 + __builtin_ctz(hits)], __ATOMIC_RELAXED));
        hits &= hits - 1;
      }
    }
#else
    // Two words at a time: most are passed over with one test.
    const auto *words = reinterpret_cast<const uint64_t *>(page);
    for (uint32_t i = 0; i < kPageSize / sizeof(uint64_t); ++i) {
      const uint64_t two = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
      if (!(two & 0x0080000000800000ull)) continue;
      note(s, static_cast<uint32_t>(two));
      note(s, static_cast<uint32_t>(two >> 32));
    }
#endif
  });
}

void gather_shadows(Search &s) {
  constexpr uintptr_t kSlotSize = uintptr_t(1) << detail::kSlotBits;
  for (uintptr_t slot = 0; slot < detail::kSlotCount; ++slot)
    if (const uintptr_t offset = detail::g_slot_offset[slot].load(std::memory_order_acquire))
      s.shadows[s.shadow_count++] = slot * kSlotSize + offset;
}

// Whether [begin, end) lies in a slot's shadow (a reservation the maps list
// shows like any mapping; its own shadow is not the program's). A slot
// given shadow after gather_shadows is not among those gathered: a range
// as large as a reservation is asked about every slot again.
bool inside_shadow(const Search &s, uintptr_t begin, uintptr_t end) {
  constexpr uintptr_t kSlotSize = uintptr_t(1) << detail::kSlotBits;
  for (uint32_t i = 0; i < s.shadow_count; ++i)
    if (begin < s.shadows[i] + kSlotSize && end > s.shadows[i]) return true;
  if (end - begin < (uintptr_t(1) << 36)) return false;
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
  if (end > (uintptr_t(1) << 47) || begin >= end || inside_shadow(s, begin, end)) return;
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
  gather_shadows(s);
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
  Search s;
  s.pairs = pairs;
  s.named = named;
  if (!search_shadow(s)) return kLockPairSearchFailed;
  for_each_runtime_mapping(search_runtime_range, &s);
  return s.read;
}

}  // namespace snag::race
