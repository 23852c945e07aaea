// The only optimisation `snag check` runs on clang's -O0 output: mem2reg
// (LLVM 14's PromotePass, new pass manager), so that locals whose address
// never escapes become SSA values the interpreter need not treat as memory.
// It moves no instruction, so every access keeps its exact source line.
#pragma once

namespace llvm {
class Module;
}

namespace snag::interp::frontend {

void promote_memory_to_registers(llvm::Module &module);

}  // namespace snag::interp::frontend
