#include "core/fatal_signals.h"

#include <elf.h>
#include <ucontext.h>

// Where the linker put the executable's code (GNU ld's default script).
extern "C" __attribute__((weak)) char __executable_start[];
extern "C" __attribute__((weak)) char etext[];

namespace snag {

uint64_t executable_fault_address(void *context) {
  if (!context || !__executable_start || !etext) return 0;
  auto *uc = static_cast<ucontext_t *>(context);
  uintptr_t pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  uintptr_t start = reinterpret_cast<uintptr_t>(__executable_start);
  if (pc < start || pc >= reinterpret_cast<uintptr_t>(etext)) return 0;
  // The first segment begins with the ELF header: a position-independent
  // executable (ET_DYN) was loaded at `start`, any other at its own addresses.
  bool pie = reinterpret_cast<const Elf64_Ehdr *>(start)->e_type == ET_DYN;
  return pie ? pc - start : pc;
}

void install_where_default(const int *signals, int count, void (*handler)(int, siginfo_t *, void *)) {
  for (int i = 0; i < count; ++i) {
    struct sigaction old;
    if (sigaction(signals[i], nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa = {};
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(signals[i], &sa, nullptr);
  }
}

}  // namespace snag
