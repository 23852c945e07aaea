// What the engines that turn a fatal signal into a finding (explore's
// failures, race's crash after a race) share: where the fault happened in
// the executable, and installing a handler only where the program has none.
#pragma once

#include <signal.h>
#include <stdint.h>

namespace snag {

// The faulting instruction's address in the executable's ELF file, when it
// is there: the shadow stack knows only the last instrumented call, so a
// fault in the program's own code (a null dereference) needs the exact
// instruction, which the CLI turns into file:line (cli/crash_location.h).
// 0 when the fault is elsewhere (in libc, where the last call is the line).
uint64_t executable_fault_address(void *context);

// Installs `handler` (SA_SIGINFO, SA_NODEFER) for each of `signals` whose
// action is still the default: a handler the program or another part of
// snag installed stays.
void install_where_default(const int *signals, int count, void (*handler)(int, siginfo_t *, void *));

}  // namespace snag
