// Stacks of code snag did not instrument. A side of a finding whose thread
// had no instrumented frame at all (libc's exit running libstdc++'s
// ~condition_variable, a thread a plain library started) has an empty shadow
// stack. On its own thread, at report time, the runtime walks the native
// stack instead; its frames are code addresses, kept in a StackTrace like
// sites but tagged so they never pass for one, and named by their module
// (the executable or a shared library) and the offset in it, which `snag`
// turns into function, file and line with llvm-symbolizer.
#pragma once

#include <stdint.h>

#include "core/stack.h"

namespace snag {

// Site ids are 64-bit hashes (docs/site-table.md); user-space code addresses
// are below 1 << 47. A frame is a code address when find_site does not know
// it and its top 16 bits are the tag: a hash that is both is a 2^-64 chance.
constexpr snag_site_t kCodeAddressTag = 0xc0de000000000000ull;
constexpr snag_site_t kCodeAddressTagMask = 0xffff000000000000ull;

inline bool has_code_address_tag(snag_site_t frame) {
  return (frame & kCodeAddressTagMask) == kCodeAddressTag;
}
inline uintptr_t code_address_of(snag_site_t frame) {
  return static_cast<uintptr_t>(frame & ~kCodeAddressTagMask);
}

// The native stack of the calling thread as tagged code addresses, innermost
// first, starting at the runtime's entry point that the program called (the
// interceptor: its name is the libc function's) and leaving out the
// runtime's frames above it. Report path only: it may allocate.
void capture_native_stack(StackTrace *out);

// Where a code address is: the module's path, the address as the module's
// own (what llvm-symbolizer --obj=MODULE takes) and, when the module
// exports the function around it, that function's name (demangled when the
// program has libstdc++'s demangler; written into `name`, which the caller
// provides). False when no loaded module holds it.
struct CodeLocation {
  const char *module = nullptr;
  uintptr_t offset = 0;
  const char *function = nullptr;
};
bool locate_code(uintptr_t address, CodeLocation *out, char *name, uint32_t name_capacity);

}  // namespace snag
