// Names the global variable that contains an address, for reports
// ("Location is global 'counter'"), by reading the symbol table of the ELF
// file the address belongs to. Report path only: it opens and maps files.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace snag {

struct GlobalSymbol {
  char name[128];
  uintptr_t address;
  uintptr_t size;
};

// False when the address is in no loaded file's data or has no symbol.
bool find_global_symbol(uintptr_t addr, GlobalSymbol *out);

}  // namespace snag
