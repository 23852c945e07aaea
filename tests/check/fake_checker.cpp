// A stand-in for the interpreter (interp/ir, CheckModule), for tests of the
// `snag check` command only: it never ships in `snag`. It reports one race
// when two functions store to a global named `counter` (at the first such
// store of each), refuses a module without `main` as the real one refuses a
// module without entries, names the options it was given in its entry, and
// crashes on demand.
#include "interp/ir/checker.h"

#include <signal.h>

#include <stdexcept>

#include <fmt/format.h>

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace snag::interp {

CheckResult CheckModule(llvm::Module &module, const CheckOptions &options) {
  if (module.getFunction("_Z21crash_the_interpreterv")) raise(SIGSEGV);
  if (!module.getFunction("main") || module.getFunction("main")->isDeclaration())
    throw std::runtime_error("no entry in " + module.getModuleIdentifier());
  CheckResult result;
  // The command runs the interpreter in a child process: what it was given
  // comes back in the result, where the tests can see it.
  result.entries = {fmt::format("main seed={} max_steps_total={} max_steps_per_run={}", options.seed,
                                options.max_steps_total, options.max_steps_per_run)};
  result.runs = 1;
  result.steps = 10;
  std::vector<FindingSide> sides;
  for (llvm::Function &f : module) {
    for (llvm::Instruction &i : llvm::instructions(f)) {
      auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (!store || store->getPointerOperand()->getName() != "counter" || !store->getDebugLoc()) continue;
      const llvm::DebugLoc &loc = store->getDebugLoc();
      bool in_main = f.getName() == "main";
      sides.push_back({{loc->getFilename().str(), loc.getLine(), loc.getCol()},
                       in_main ? "main thread" : "thread T1 started at " + loc->getFilename().str() + ":1:1",
                       true, f.getName().str()});
      break;
    }
  }
  if (sides.size() >= 2) {
    CheckFinding finding;
    finding.variable = "counter";
    finding.entry = "main";
    finding.message = "data race on 'counter'";
    finding.sides = {sides[0], sides[1]};
    result.findings.push_back(finding);
  }
  return result;
}

}  // namespace snag::interp
