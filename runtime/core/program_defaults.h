// Options a program compiles in, as ThreadSanitizer programs do with
// __tsan_default_options(): the runtime reads them before SNAG_OPTIONS, so
// the environment (and the snag command's own settings) still win.
#pragma once

#include <stddef.h>

namespace snag {

// Writes into `out` (of `capacity` bytes) the program's snag defaults
// (__snag_default_options(), every key), then the keys of its
// __tsan_default_options() that mean the same to snag (halt_on_error,
// exitcode, suppressions, report_bugs; the rest are ThreadSanitizer's own
// and are ignored), then `environment_text`. Returns `out`.
const char *options_with_program_defaults(char *out, size_t capacity,
                                          const char *environment_text);

}  // namespace snag
