// Marks a binary as built with snag. The `snag` command looks for this
// section to tell an instrumented program from one built without snag-c++.
#include "core/platform.h"

extern "C" __attribute__((section("snag_runtime"), used, visibility("default")))
const char __snag_runtime_marker[] = "snag-runtime 0.1.0";
