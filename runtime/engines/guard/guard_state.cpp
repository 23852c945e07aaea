#include "engines/guard/guard_state.h"

#include <sys/syscall.h>
#include <time.h>

#include "core/platform.h"

namespace snag::guard {

Params g_params;
SitePairs g_bsets;
bool g_checking = false;
SitePairs g_learned;
SitePairs g_edges;
SitePairs g_expose;
int g_owner_pid;
const char *g_program = "program";
std::atomic<uint64_t> g_stalls{0};
std::atomic<int> g_stalling{0};

void sleep_ms(uint32_t ms) {
  timespec ts = {static_cast<time_t>(ms / 1000), static_cast<long>(ms % 1000) * 1000000};
  while (raw_syscall(SYS_nanosleep, reinterpret_cast<long>(&ts), reinterpret_cast<long>(&ts)) ==
         -4 /* EINTR */) {
  }
}

}  // namespace snag::guard
