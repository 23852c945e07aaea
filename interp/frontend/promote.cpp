#include "interp/frontend/promote.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

namespace snag::interp::frontend {

void promote_memory_to_registers(llvm::Module &module) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgsccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgsccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgsccs, modules);

  llvm::FunctionPassManager function_passes;
  function_passes.addPass(llvm::PromotePass());
  llvm::ModulePassManager module_passes;
  module_passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(function_passes)));
  module_passes.run(module, modules);
}

}  // namespace snag::interp::frontend
