#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>

using namespace llvm;

namespace snag {

InstrumentKinds parseInstrumentKinds(StringRef Spec) {
  InstrumentKinds Kinds;
  SmallVector<StringRef, 8> Words;
  Spec.split(Words, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Word : Words) {
    Word = Word.trim();
    if (Word.empty())
      continue;
    if (Word == "all") {
      Kinds.Memory = Kinds.Atomics = Kinds.MemOps = Kinds.Functions =
          Kinds.Api = true;
    } else if (Word == "none") {
      Kinds = InstrumentKinds();
    } else if (Word == "memory") {
      Kinds.Memory = true;
    } else if (Word == "atomics") {
      Kinds.Atomics = true;
    } else if (Word == "memops") {
      Kinds.MemOps = true;
    } else if (Word == "functions") {
      Kinds.Functions = true;
    } else if (Word == "api") {
      Kinds.Api = true;
    } else if (Word == "guard") {
      Kinds.Memory = Kinds.Guard = true;
    } else {
      // Not a crash: gen_crash_diag=false makes clang print the message and
      // exit with status 1 instead of asking for a bug report.
      report_fatal_error("snag: SNAG_INSTRUMENT: unknown kind '" + Word +
                             "' (expected a comma-separated list of memory, "
                             "atomics, memops, functions, api, guard, all, none)",
                         /*gen_crash_diag=*/false);
    }
  }
  return Kinds;
}

InstrumentKinds instrumentKindsFromEnvironment() {
  const char *Spec = std::getenv("SNAG_INSTRUMENT");
  if (!Spec || !*Spec)
    return parseInstrumentKinds("all");
  return parseInstrumentKinds(Spec);
}

} // namespace snag
