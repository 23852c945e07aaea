#include "intercept/real.h"

namespace snag {

// The linker's bounds of the section snag_reals (real.h).
extern "C" const RealSlot __start_snag_reals[] __attribute__((weak, visibility("hidden")));
extern "C" const RealSlot __stop_snag_reals[] __attribute__((weak, visibility("hidden")));

void *find_real(const char *name, const char *version) {
  return version ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
}

void look_up_all_reals() {
  for (const RealSlot *slot = __start_snag_reals; slot < __stop_snag_reals; ++slot) slot->look_up();
}

void *lookup_real(const char *name, const char *version) {
  void *p = find_real(name, version);
  if (!p) {
    char message[160] = "cannot find the real ";
    copy_text(message + cstr_len(message), 100, name);
    fatal(message);
  }
  return p;
}

}  // namespace snag
