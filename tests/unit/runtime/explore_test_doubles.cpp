// Stand-ins for the parts of the runtime the engine unit tests do not link:
// the failure oracles (they report through the whole findings pipeline), the
// call-site word the instrumented code writes (defined by runtime.cpp) and
// whether this is a forked schedule (explore_engine.cpp).
#include <stdio.h>
#include <stdlib.h>

#include "engines/explore/engine_state.h"
#include "engines/explore/failures.h"
#include "core/thread_stack_lender.h"
#include "snag/abi.h"

__thread snag_site_t __snag_call_site;

// Defined by the pthread_create interceptor (intercept/thread.cpp).
const snag::ThreadStackLender *snag::g_thread_stack_lender = nullptr;
// Lazy threads: the unit tests create no thread through pthread_create, so
// none is ever deferred.
bool (*snag::g_defer_thread)(Tid) = nullptr;
void (*snag::g_deferred_creation_failed)(int) = nullptr;
void snag::materialize_thread(Tid) {}
void snag::learn_deferred_handle_offset() {}

namespace snag::explore {

// The unit tests run no fork server; the coverage tests act as a schedule's
// child (explore_coverage_test.cpp).
bool g_test_in_forked_child = false;
bool in_forked_child() { return g_test_in_forked_child; }

[[noreturn]] void fail_deadlock(ControlledThread &me) {
  fprintf(stderr, "test double: deadlock reported by T%u\n", me.tid);
  abort();
}

[[noreturn]] void fail_hang(ControlledThread &me, uint64_t) {
  fprintf(stderr, "test double: hang reported by T%u\n", me.tid);
  abort();
}

[[noreturn]] void end_incomplete_schedule(const char *why) {
  fprintf(stderr, "test double: schedule incomplete (%s)\n", why);
  abort();
}

}  // namespace snag::explore
