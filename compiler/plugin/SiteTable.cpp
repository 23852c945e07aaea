#include "SiteTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include "RuntimeHooks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cassert>

using namespace llvm;

namespace snag {

namespace {

constexpr StringLiteral RecordedSitesName = "snag.recorded_sites";
constexpr StringLiteral TableSection = "snag_sites";

// Table fields are TAB-separated lines, so neither may appear in a string.
std::string sanitize(StringRef Text) {
  std::string Out = Text.str();
  for (char &C : Out)
    if (C == '\t' || C == '\n')
      C = ' ';
  return Out;
}

// "The directory joined with the file name when the name is relative."
std::string joinedPath(StringRef Directory, StringRef FileName) {
  if (Directory.empty() || sys::path::is_absolute(FileName))
    return FileName.str();
  SmallString<256> Path(Directory);
  sys::path::append(Path, FileName);
  return std::string(Path.str());
}

struct Position {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

// Where `Loc` is. Line 0 means "compiler-generated, no source line": a
// missing or line-0 location is at the line of `SP` (the function the code
// belongs to) and column 0, or without debug information at line 0 of the
// module's source file.
Position positionOf(const Module &M, const DILocation *Loc,
                    const DISubprogram *SP) {
  Position P;
  if (Loc && Loc->getLine()) {
    P.File = joinedPath(Loc->getDirectory(), Loc->getFilename());
    P.Line = Loc->getLine();
    P.Column = Loc->getColumn();
  } else if (SP) {
    P.File = joinedPath(SP->getDirectory(), SP->getFilename());
    P.Line = SP->getLine();
  } else {
    P.File = M.getSourceFileName();
  }
  return P;
}

// `F`'s name, as the program knows it: a copy's suffix dropped.
std::string programNameOf(const Function &F) {
  StringRef Name = F.getName();
  Name.consume_back(kNoApiCopySuffix);
  return Name.str();
}

// The linkage name of the function `SP` describes (its name when it has no
// linkage name, as for C functions); `F`'s name without a subprogram.
std::string linkageNameOf(const DISubprogram *SP, const Function &F) {
  if (SP && !SP->getLinkageName().empty())
    return SP->getLinkageName().str();
  if (SP && !SP->getName().empty())
    return SP->getName().str();
  return programNameOf(F);
}

// The subprogram of the function `Loc`'s code belongs to.
const DISubprogram *subprogramOf(const DILocation *Loc) {
  return Loc && Loc->getScope() ? Loc->getScope()->getSubprogram() : nullptr;
}

// The id formula's key: everything but the ordinal.
std::string keyOf(const SiteRecord &Site) {
  std::string Key = (Twine(Site.LinkageName) + "|" + Site.File + "|" +
                     Twine(Site.Line) + "|" + Twine(Site.Column) + "|" +
                     Twine(static_cast<unsigned>(Site.Kind)))
                        .str();
  if (Site.Parent) {
    raw_string_ostream Out(Key);
    Out << '|' << format_hex_no_prefix(Site.Parent, 16);
  }
  return Key;
}

uint64_t idOf(StringRef Key, unsigned Ordinal) {
  return fnv1a64((Twine(Key) + "|" + Twine(Ordinal)).str());
}

// First-use numbering of the F and N lines.
class Indexer {
public:
  unsigned indexOf(StringRef Key) {
    auto [It, Inserted] = Indices.try_emplace(Key, Keys.size());
    if (Inserted)
      Keys.push_back(Key.str());
    return It->second;
  }
  // In index order.
  const std::vector<std::string> &keys() const { return Keys; }

private:
  StringMap<unsigned> Indices;
  std::vector<std::string> Keys;
};

} // namespace

uint64_t fnv1a64(StringRef Bytes) {
  uint64_t Hash = 14695981039346656037ull;
  for (unsigned char C : Bytes) {
    Hash ^= C;
    Hash *= 1099511628211ull;
  }
  return Hash;
}

void SiteTable::assignId(SiteRecord &Site) {
  std::string Key = keyOf(Site);
  Site.Ordinal = Ordinals[Key]++;
  Site.Id = idOf(Key, Site.Ordinal);
}

// Optimizations drop the location of instructions they move (a load hoisted
// out of a loop) or merge. Such an instruction belongs to the statement of
// the next located instruction in its block (the one using its value), or
// failing that the previous one; only then to the function's line.
static const DILocation *nearestLocation(const Instruction *At) {
  auto located = [](const Instruction &I) -> const DILocation * {
    if (isa<DbgInfoIntrinsic>(I)) return nullptr;
    const DILocation *L = I.getDebugLoc().get();
    return L && L->getLine() ? L : nullptr;
  };
  if (const DILocation *L = located(*At)) return L;
  // A value read without a location (the hoisted load of `counter` in a loop
  // folded to `counter += 1000`) belongs to the statement that stores it.
  SmallVector<const Instruction *, 8> Work{At};
  for (unsigned Depth = 0; Depth < 3 && !Work.empty(); ++Depth) {
    SmallVector<const Instruction *, 8> Next;
    for (const Instruction *I : Work)
      for (const User *U : I->users())
        if (const auto *UI = dyn_cast<Instruction>(U)) {
          if (isa<StoreInst>(UI) || isa<AtomicRMWInst>(UI))
            if (const DILocation *L = located(*UI)) return L;
          Next.push_back(UI);
        }
    Work = std::move(Next);
  }
  for (const Instruction *I = At->getNextNode(); I; I = I->getNextNode())
    if (const DILocation *L = located(*I)) return L;
  for (const Instruction *I = At->getPrevNode(); I; I = I->getPrevNode())
    if (const DILocation *L = located(*I)) return L;
  return nullptr;
}

uint64_t SiteTable::addSite(const Function &F, const Instruction *At,
                            snag_site_kind Kind, InlineFrames Inlining) {
  const DILocation *Loc = At ? nearestLocation(At) : nullptr;
  const DILocation *InlinedAt = Loc ? Loc->getInlinedAt() : nullptr;
  SiteRecord Site;
  Site.Kind = Kind;
  const DISubprogram *SP = F.getSubprogram();
  if (InlinedAt) {
    // Inlined code belongs to the inlined function, not to `F`.
    if (const DISubprogram *Inlined = subprogramOf(Loc))
      SP = Inlined;
    Site.LinkageName = sanitize(linkageNameOf(SP, F));
    if (Inlining == InlineFrames::Describe)
      Site.Parent = inlineSite(F, InlinedAt);
  } else {
    Site.LinkageName = sanitize(programNameOf(F));
  }
  Position P = positionOf(M, Loc, SP);
  Site.Line = P.Line;
  Site.Column = P.Column;
  Site.File = sanitize(P.File);
  assignId(Site);
  Sites.push_back(Site);
  return Site.Id;
}

uint64_t SiteTable::addApiSite(const Function &F, const Instruction *At,
                               char Access, StringRef ObjectType,
                               StringRef Operation) {
  uint64_t Id = addSite(F, At, SNAG_SITE_API, InlineFrames::Omit);
  SiteRecord &Site = Sites.back();
  Site.ApiAccess = Access;
  Site.ApiObject = sanitize(ObjectType);
  Site.ApiOperation = sanitize(Operation);
  return Id;
}

uint64_t SiteTable::inlineSite(const Function &F, const DILocation *InlinedAt) {
  if (!InlinedAt)
    return 0;
  auto Found = InlineSitesByLocation.find({&F, InlinedAt});
  if (Found != InlineSitesByLocation.end())
    return Found->second;

  // Parents first: a site's S line comes after its parent's.
  const DILocation *Outer = InlinedAt->getInlinedAt();
  SiteRecord Site;
  Site.Kind = SNAG_SITE_INLINE;
  Site.Parent = inlineSite(F, Outer);
  const DISubprogram *SP = subprogramOf(InlinedAt);
  if (Outer) {
    Site.LinkageName = sanitize(linkageNameOf(SP, F));
  } else {
    // The outermost call is in `F` itself.
    Site.LinkageName = sanitize(programNameOf(F));
    if (!SP)
      SP = F.getSubprogram();
  }
  Position P = positionOf(M, InlinedAt, SP);
  Site.Line = P.Line;
  Site.Column = P.Column;
  Site.File = sanitize(P.File);

  // Equal chains (same positions, functions and parents) are one site, so
  // the ordinal of an inline site is always 0.
  std::string Key = keyOf(Site);
  auto [It, Inserted] = InlineSitesByKey.try_emplace(Key, 0);
  if (Inserted) {
    Site.Id = idOf(Key, 0);
    Sites.push_back(Site);
    It->second = Site.Id;
  }
  InlineSitesByLocation[{&F, InlinedAt}] = It->second;
  return It->second;
}

uint64_t SiteTable::addInlinedCopy(const Function &F, const SiteRecord &Original,
                                   const DILocation *InlinedAt) {
  uint64_t Parent = inlineSite(F, InlinedAt);
  if (!Parent)
    return Original.Id;
  auto [It, Inserted] = InlinedCopies.try_emplace({Original.Id, Parent}, 0);
  if (!Inserted)
    return It->second;
  SiteRecord Copy = Original;
  Copy.Parent = Parent;
  // The original's ordinal: it already tells apart the sites of the
  // original's function with its position and kind.
  Copy.Id = idOf(keyOf(Copy), Copy.Ordinal);
  Sites.push_back(Copy);
  It->second = Copy.Id;
  return Copy.Id;
}

void SiteTable::recordInModule() const {
  if (Sites.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Records = M.getOrInsertNamedMetadata(RecordedSitesName);
  auto Number = [&](unsigned Bits, uint64_t Value) -> Metadata * {
    return ConstantAsMetadata::get(
        ConstantInt::get(IntegerType::get(Ctx, Bits), Value));
  };
  for (const SiteRecord &Site : Sites) {
    assert(!Site.Parent && "recorded sites have no inline frames");
    Records->addOperand(MDTuple::get(
        Ctx, {Number(64, Site.Id), Number(32, Site.Kind),
              Number(32, Site.Line), Number(32, Site.Column),
              MDString::get(Ctx, Site.File),
              MDString::get(Ctx, Site.LinkageName),
              Number(32, Site.Ordinal), Number(8, Site.ApiAccess),
              MDString::get(Ctx, Site.ApiObject),
              MDString::get(Ctx, Site.ApiOperation)}));
  }
}

std::vector<SiteRecord>
SiteTable::takeRecordedSites(Module &M) {
  std::vector<SiteRecord> Result;
  NamedMDNode *Records = M.getNamedMetadata(RecordedSitesName);
  if (!Records)
    return Result;
  auto Number = [](const MDNode *Node, unsigned I) {
    return mdconst::extract<ConstantInt>(Node->getOperand(I))->getZExtValue();
  };
  for (const MDNode *Node : Records->operands()) {
    SiteRecord Site;
    Site.Id = Number(Node, 0);
    Site.Kind = static_cast<snag_site_kind>(Number(Node, 1));
    Site.Line = Number(Node, 2);
    Site.Column = Number(Node, 3);
    Site.File = cast<MDString>(Node->getOperand(4))->getString().str();
    Site.LinkageName = cast<MDString>(Node->getOperand(5))->getString().str();
    Site.Ordinal = Number(Node, 6);
    Site.ApiAccess = static_cast<char>(Number(Node, 7));
    Site.ApiObject = cast<MDString>(Node->getOperand(8))->getString().str();
    Site.ApiOperation = cast<MDString>(Node->getOperand(9))->getString().str();
    Result.push_back(std::move(Site));
  }
  M.eraseNamedMetadata(Records);
  return Result;
}

std::string SiteTable::render() const {
  Indexer Files, Names;
  std::string SiteLines;
  raw_string_ostream SiteOut(SiteLines);
  for (const SiteRecord &Site : Sites) {
    unsigned FileIndex = Files.indexOf(Site.File);
    unsigned NameIndex = Names.indexOf(Site.LinkageName);
    SiteOut << "S\t" << format_hex_no_prefix(Site.Id, 16) << '\t'
            << static_cast<unsigned>(Site.Kind) << '\t' << Site.Line << '\t'
            << Site.Column << '\t' << FileIndex << '\t' << NameIndex;
    if (Site.Parent)
      SiteOut << '\t' << format_hex_no_prefix(Site.Parent, 16);
    SiteOut << '\n';
    if (Site.ApiAccess)
      SiteOut << "A\t" << format_hex_no_prefix(Site.Id, 16) << '\t'
              << Site.ApiAccess << '\t' << Site.ApiObject << '\t'
              << Site.ApiOperation << '\n';
  }
  SiteOut.flush();

  // F and N lines first, so that every S line follows the lines it uses.
  std::string Text;
  raw_string_ostream Out(Text);
  Out << "M\t" << SNAG_ABI_VERSION << '\t' << sanitize(M.getSourceFileName())
      << '\n';
  for (size_t Index = 0; Index < Files.keys().size(); ++Index)
    Out << "F\t" << Index << '\t' << Files.keys()[Index] << '\n';
  for (size_t Index = 0; Index < Names.keys().size(); ++Index) {
    const std::string &Linkage = Names.keys()[Index];
    Out << "N\t" << Index << '\t' << sanitize(demangle(Linkage)) << '\t'
        << Linkage << '\n';
  }
  Out << SiteLines;
  return Out.str();
}

void SiteTable::emit() {
  if (Sites.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  std::string Text = render();

  // Private, constant, not NUL-terminated: the linker concatenates the
  // module tables of a binary in section snag_sites.
  Constant *Bytes = ConstantDataArray::getString(Ctx, Text, /*AddNull=*/false);
  auto *Array = new GlobalVariable(M, Bytes->getType(), /*isConstant=*/true,
                                   GlobalValue::PrivateLinkage, Bytes,
                                   "__snag_sites");
  Array->setSection(TableSection);
  Array->setAlignment(Align(1));

  RuntimeHooks Hooks(M);
  Function *Ctor = Function::Create(FunctionType::get(Hooks.voidTy(), false),
                                    GlobalValue::InternalLinkage,
                                    ModuleCtorName, M);
  Ctor->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> IRB(ReturnInst::Create(Ctx, BasicBlock::Create(Ctx, "", Ctor)));
  IRB.CreateCall(Hooks.registerSites(),
                 {IRB.CreatePointerCast(Array, Hooks.bytePtrTy()),
                  ConstantInt::get(Hooks.sizeTy(), Text.size())});
  // Priority 0 runs before any user constructor, so the sites are known
  // before the first instrumented code runs.
  appendToGlobalCtors(M, Ctor, /*Priority=*/0);
}

} // namespace snag
