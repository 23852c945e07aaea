// Which kinds of instrumentation a compilation asks for (SNAG_INSTRUMENT).
#ifndef SNAG_PLUGIN_OPTIONS_H
#define SNAG_PLUGIN_OPTIONS_H

#include "llvm/ADT/StringRef.h"

namespace snag {

struct InstrumentKinds {
  bool Memory = false;    // plain loads and stores
  bool Atomics = false;   // atomic instructions and fences
  bool MemOps = false;    // memcpy / memmove / memset
  bool Functions = false; // function entry/exit and call-site stores
  bool Api = false;       // calls to members of classes in the API table
  // A lean guard build: plain loads and stores at the sites of an
  // invariants file only (GuardSites.h).
  bool Guard = false;

  bool any() const { return Memory || Atomics || MemOps || Functions || Api; }
  // Kinds inserted at the end of the optimization pipeline.
  bool anyLate() const { return Memory || Atomics || MemOps || Functions; }
};

// Parses a SNAG_INSTRUMENT value: a comma-separated list of
// memory, atomics, memops, functions, api, all, none, read left to right
// (`all` turns every kind on, `none` clears the kinds named before it).
// Reports an unknown word with llvm::report_fatal_error.
InstrumentKinds parseInstrumentKinds(llvm::StringRef Spec);

// Reads SNAG_INSTRUMENT from the environment; unset or empty means `all`.
InstrumentKinds instrumentKindsFromEnvironment();

} // namespace snag

#endif
