// Site ids and the per-module site table of docs/site-table.md.
//
// A SiteTable hands out stable ids for the sites of one module and, at the
// end, writes the table into the module (section `snag_sites`) together with
// a constructor that registers it with the runtime.
#ifndef SNAG_PLUGIN_SITE_TABLE_H
#define SNAG_PLUGIN_SITE_TABLE_H

#include "snag/abi.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>
#include <vector>

namespace snag {

struct SiteRecord {
  uint64_t Id = 0;
  snag_site_kind Kind = SNAG_SITE_READ;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string File;        // as in the F line
  std::string LinkageName; // of the function the site was created in
};

// FNV-1a, 64 bits.
uint64_t fnv1a64(llvm::StringRef Bytes);

class SiteTable {
public:
  explicit SiteTable(llvm::Module &M) : M(M) {}

  // A new site of function `F` at the debug location of `At`, or at the
  // function's line and column 0 when `At` is null or has no location.
  uint64_t addSite(const llvm::Function &F, const llvm::Instruction *At,
                   snag_site_kind Kind);

  // A site whose id was computed by an earlier pass (see recordInModule).
  void addRecorded(const SiteRecord &Site) { Sites.push_back(Site); }

  bool empty() const { return Sites.empty(); }
  const std::vector<SiteRecord> &sites() const { return Sites; }

  // The API sites are made before inlining but the table is written at the
  // end of the pipeline, so they travel between the two passes as named
  // module metadata. recordInModule appends this table's sites to it;
  // takeRecordedSites removes it from the module and returns the sites of
  // those records whose ids are in `Keep` (sites whose code was deleted by
  // the optimizer are dropped).
  void recordInModule() const;
  static std::vector<SiteRecord>
  takeRecordedSites(llvm::Module &M, const llvm::DenseSet<uint64_t> &Keep);

  // The table text of docs/site-table.md.
  std::string render() const;

  // Adds the table array and the registering constructor to the module.
  // Does nothing for an empty table.
  void emit();

private:
  llvm::Module &M;
  std::vector<SiteRecord> Sites;
  // Number of sites so far per "linkage|file|line|column|kind".
  llvm::StringMap<unsigned> Ordinals;
};

// Name of the constructor emit() adds; never instrumented.
inline constexpr llvm::StringLiteral ModuleCtorName = "snag.module_ctor";

} // namespace snag

#endif
