// Site ids and the per-module site table of docs/site-table.md.
//
// A SiteTable hands out stable ids for the sites of one module and, at the
// end, writes the table into the module (section `snag_sites`) together with
// a constructor that registers it with the runtime.
#ifndef SNAG_PLUGIN_SITE_TABLE_H
#define SNAG_PLUGIN_SITE_TABLE_H

#include "snag/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>
#include <vector>

namespace snag {

// The suffix of a function's copy without API hooks (ApiCallMarking.cpp,
// guardApiCallsInLoops). Its sites name the function the program knows:
// reports said "produce(int) (.snag.no_api)".
inline constexpr const char *kNoApiCopySuffix = ".snag.no_api";

struct SiteRecord {
  uint64_t Id = 0;
  snag_site_kind Kind = SNAG_SITE_READ;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string File;        // as in the F line
  // Of the function the site's code belongs to: the function it was created
  // in, or for code inlined into that function, the inlined function.
  std::string LinkageName;
  // The inline site (SNAG_SITE_INLINE) of the call this site's code was
  // inlined at; 0 for none. The 8th field of the S line.
  uint64_t Parent = 0;
  // The ordinal of the id formula (docs/site-table.md).
  unsigned Ordinal = 0;
  // API sites only (the A line): 'r' or 'w', the object's type as the user
  // writes it and the operation, e.g. "std::vector<int>" and "push_back".
  char ApiAccess = 0;
  std::string ApiObject;
  std::string ApiOperation;
};

// FNV-1a, 64 bits.
uint64_t fnv1a64(llvm::StringRef Bytes);

class SiteTable {
public:
  explicit SiteTable(llvm::Module &M) : M(M) {}

  // Whether addSite describes the inlining of `At`'s location.
  enum class InlineFrames { Describe, Omit };

  // A new site of function `F` at the debug location of `At`, or at the
  // function's line and column 0 when `At` is null or has no location.
  // When the location was inlined (it has an inlinedAt chain), the site
  // belongs to the inlined function and, with InlineFrames::Describe, its
  // parent is the inline site of the chain (see inlineSite).
  uint64_t addSite(const llvm::Function &F, const llvm::Instruction *At,
                   snag_site_kind Kind,
                   InlineFrames Inlining = InlineFrames::Describe);

  // An API site (kind SNAG_SITE_API) at `At`, not yet inlined, with what its
  // A line says: the access ('r' or 'w'), the object's type and the
  // operation.
  uint64_t addApiSite(const llvm::Function &F, const llvm::Instruction *At,
                      char Access, llvm::StringRef ObjectType,
                      llvm::StringRef Operation);

  // The SNAG_SITE_INLINE site of `InlinedAt`, an inlinedAt location of code
  // in function `F`, together with the sites of its own inlinedAt chain (its
  // parents). Equal chains share their sites. 0 for a null location.
  uint64_t inlineSite(const llvm::Function &F,
                      const llvm::DILocation *InlinedAt);

  // A copy of `Original`, a site made before inlining, for code that was
  // later inlined at `InlinedAt` in function `F`: the same position, kind
  // and ordinal, with the inline site of `InlinedAt` as its parent.
  // Returns the copy's id; equal arguments give the same copy.
  uint64_t addInlinedCopy(const llvm::Function &F, const SiteRecord &Original,
                          const llvm::DILocation *InlinedAt);

  // A site whose id was computed by an earlier pass (see recordInModule).
  void addRecorded(const SiteRecord &Site) { Sites.push_back(Site); }

  bool empty() const { return Sites.empty(); }
  const std::vector<SiteRecord> &sites() const { return Sites; }

  // The API sites are made before inlining but the table is written at the
  // end of the pipeline, so they travel between the two passes as named
  // module metadata. recordInModule appends this table's sites to it (they
  // must have no parent); takeRecordedSites removes it from the module and
  // returns its sites.
  void recordInModule() const;
  static std::vector<SiteRecord> takeRecordedSites(llvm::Module &M);

  // The table text of docs/site-table.md.
  std::string render() const;

  // Adds the table array and the registering constructor to the module.
  // Does nothing for an empty table.
  void emit();

private:
  // Sets Site.Id from the formula, counting the ordinal.
  void assignId(SiteRecord &Site);

  llvm::Module &M;
  std::vector<SiteRecord> Sites;
  // Number of sites so far per "linkage|file|line|column|kind[|parent]".
  llvm::StringMap<unsigned> Ordinals;
  // Inline sites by (containing function, inlinedAt location) and by their
  // key (deduplication of equal chains).
  llvm::DenseMap<std::pair<const llvm::Function *, const llvm::DILocation *>,
                 uint64_t>
      InlineSitesByLocation;
  llvm::StringMap<uint64_t> InlineSitesByKey;
  // Copies made by addInlinedCopy, by (original id, parent id).
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, uint64_t> InlinedCopies;
};

// Name of the constructor emit() adds; never instrumented.
inline constexpr llvm::StringLiteral ModuleCtorName = "snag.module_ctor";

} // namespace snag

#endif
