// snag's pass plugin: `clang-14 -fpass-plugin=libsnag_pass.so`.
//
// Three passes, at two points of the new pass manager's pipeline:
//   - PipelineStart (before inlining): ApiMarkingPass brackets calls to
//     members of thread-unsafe classes (ApiCallMarking.h).
//   - PipelineStart also: NoSpeculativeLoadsPass marks functions
//     sanitize_thread so the optimizer does not hoist loads out of branches
//     (NoSpeculativeLoads.h).
//   - OptimizerLast (end of optimization, where ThreadSanitizer runs):
//     InstrumentationPass adds the memory, atomic, memop, function and
//     call-site hooks (MemoryInstrumentation.h) and writes the site table
//     of every site of the module, including the API sites (SiteTable.h).
// LLVM 14 runs both extension points at -O0 too (buildO0DefaultPipeline
// calls the PipelineStart and OptimizerLast callbacks around the always-
// inliner), so the same two registrations serve every optimization level.
//
// SNAG_INSTRUMENT selects the kinds (Options.h); SNAG_API_TABLE adds API
// tables (ApiTable.h). Both are read once per compilation, when clang sets
// up its pass pipeline.

#include "ApiCallMarking.h"
#include "ApiTable.h"
#include "MemoryInstrumentation.h"
#include "NoSpeculativeLoads.h"
#include "Options.h"
#include "SiteTable.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <memory>

using namespace llvm;

namespace snag {
namespace {

// A module that already has snag's constructor was instrumented by an
// earlier compilation (say, of the .ll it produced); doing it again would
// double every hook.
bool alreadyInstrumented(const Module &M) {
  return M.getFunction(ModuleCtorName) != nullptr;
}

class ApiMarkingPass : public PassInfoMixin<ApiMarkingPass> {
public:
  explicit ApiMarkingPass(std::shared_ptr<const ApiTable> Table)
      : Table(std::move(Table)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (alreadyInstrumented(M) || !markApiCalls(M, *Table))
      return PreservedAnalyses::all();
    return PreservedAnalyses::none();
  }

  // Also run on optnone functions (-O0).
  static bool isRequired() { return true; }

private:
  std::shared_ptr<const ApiTable> Table;
};

// Runs before any pass that could hoist a load (NoSpeculativeLoads.h).
class NoSpeculativeLoadsPass : public PassInfoMixin<NoSpeculativeLoadsPass> {
public:
  explicit NoSpeculativeLoadsPass(std::shared_ptr<const IgnoreList> Ignore)
      : Ignore(std::move(Ignore)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (alreadyInstrumented(M) || !forbidSpeculativeLoads(M, Ignore.get()))
      return PreservedAnalyses::all();
    return PreservedAnalyses::none();
  }

  static bool isRequired() { return true; }

private:
  std::shared_ptr<const IgnoreList> Ignore;
};

class InstrumentationPass : public PassInfoMixin<InstrumentationPass> {
public:
  InstrumentationPass(InstrumentKinds Kinds, std::shared_ptr<const GuardSites> Guard,
                      std::shared_ptr<const IgnoreList> Ignore)
      : Kinds(Kinds), Guard(std::move(Guard)), Ignore(std::move(Ignore)) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (alreadyInstrumented(M))
      return PreservedAnalyses::all();
    SiteTable Sites(M);
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    // The API markers first: instrumenting memory splits blocks, after which
    // the cached loop analyses would no longer describe the functions.
    bool Changed = guardApiCallsInLoops(M, FAM);
    if (Changed)
      FAM.clear();
    Changed |= instrumentMemory(M, Kinds, Sites, Guard.get(), Ignore.get(), &FAM);
    Changed |= addApiSites(M, Sites);
    if (!Sites.empty()) {
      Sites.emit();
      Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  static bool isRequired() { return true; }

private:
  InstrumentKinds Kinds;
  std::shared_ptr<const GuardSites> Guard;
  std::shared_ptr<const IgnoreList> Ignore;
};

void registerPasses(PassBuilder &PB) {
  InstrumentKinds Kinds = instrumentKindsFromEnvironment();
  if (Kinds.Api) {
    auto Table =
        std::make_shared<const ApiTable>(ApiTable::loadDefaultAndEnvironment());
    PB.registerPipelineStartEPCallback(
        [Table](ModulePassManager &MPM, OptimizationLevel) {
          MPM.addPass(ApiMarkingPass(Table));
        });
  }
  // -fsanitize-ignorelist= files (IgnoreList.h).
  auto Ignore = std::make_shared<const IgnoreList>(IgnoreList::fromEnvironment());
  // Loads are what the race engine sees; one the optimizer invented would be
  // a false alarm.
  if (Kinds.Memory || Kinds.Guard)
    PB.registerPipelineStartEPCallback([Ignore](ModulePassManager &MPM, OptimizationLevel) {
      MPM.addPass(NoSpeculativeLoadsPass(Ignore));
    });
  std::shared_ptr<const GuardSites> Guard;
  if (Kinds.Guard) {
    Guard = std::make_shared<const GuardSites>(GuardSites::fromEnvironment());
    errs() << Guard->summary() << "\n";
  }
  // Registered even when only `api` is on: this pass writes the table.
  PB.registerOptimizerLastEPCallback(
      [Kinds, Guard, Ignore](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(InstrumentationPass(Kinds, Guard, Ignore));
      });
}

} // namespace
} // namespace snag

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "snag", "0.1", snag::registerPasses};
}
