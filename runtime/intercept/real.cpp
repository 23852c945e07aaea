#include "intercept/real.h"

namespace snag {

void *lookup_real(const char *name, const char *version) {
  void *p = version ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
  if (!p) {
    char message[160] = "cannot find the real ";
    copy_text(message + cstr_len(message), 100, name);
    fatal(message);
  }
  return p;
}

}  // namespace snag
