// Finding the real libc/libpthread/libstdc++ function behind an interceptor.
// The runtime is linked into the executable, so its definitions of
// pthread_mutex_lock, malloc, ... come first in symbol lookup; the real ones
// are the next definitions, found with dlsym(RTLD_NEXT).
#pragma once

#include <dlfcn.h>

#include "core/platform.h"
#include "core/runtime.h"

namespace snag {

void *lookup_real(const char *name, const char *version);
// The same, returning null when there is none.
void *find_real(const char *name, const char *version);

// Every SNAG_REAL puts one of these in the section snag_reals, so that all of
// them can be looked up at once.
struct RealSlot {
  void (*look_up)();
};

// Looks up every real function not looked up yet (those that do not exist
// stay unresolved, and fail when called). snag explore calls it before
// forking its schedules: otherwise each schedule would look up again, with
// dlsym, every real function the parent had not called yet.
void look_up_all_reals();

}  // namespace snag

// SNAG_REAL(ret, name, (params)) defines real_name(), returning the real
// function. The pointer is looked up once; two threads racing to look it up
// store the same value. SNAG_REAL_VERSIONED picks a symbol version (glibc
// keeps old pthread_cond_* versions that plain dlsym would return).
#define SNAG_REAL_VERSIONED(ret, name, params, version)                           \
  using name##_fn = ret(*) params;                                                \
  static name##_fn g_real_##name;                                                 \
  static void look_up_real_##name() {                                             \
    if (!g_real_##name)                                                           \
      g_real_##name = reinterpret_cast<name##_fn>(snag::find_real(#name, version)); \
  }                                                                               \
  __attribute__((used, section("snag_reals"))) static const snag::RealSlot        \
      g_real_slot_##name = {look_up_real_##name};                                 \
  static name##_fn real_##name() {                                                \
    if (SNAG_UNLIKELY(!g_real_##name))                                            \
      g_real_##name = reinterpret_cast<name##_fn>(snag::lookup_real(#name, version)); \
    return g_real_##name;                                                         \
  }
#define SNAG_REAL(ret, name, params) SNAG_REAL_VERSIONED(ret, name, params, nullptr)

// Builds an event of `kind` at the current call site.
#define SNAG_EVENT(kind) snag::make_event(snag::EventKind::kind)

namespace snag {
inline Event make_event(EventKind kind) {
  Event e{kind};
  e.site = caller_site();
  return e;
}
}  // namespace snag
