#include "SiteTable.h"

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

Position positionOf(const Module &M, const Function &F, const Instruction *At) {
  Position P;
  // Line 0 means "compiler-generated, no source line": treat it like a
  // missing location.
  if (At) {
    if (const DILocation *Loc = At->getDebugLoc().get(); Loc && Loc->getLine()) {
      P.File = joinedPath(Loc->getDirectory(), Loc->getFilename());
      P.Line = Loc->getLine();
      P.Column = Loc->getColumn();
      return P;
    }
  }
  if (const DISubprogram *SP = F.getSubprogram()) {
    P.File = joinedPath(SP->getDirectory(), SP->getFilename());
    P.Line = SP->getLine();
  } else {
    P.File = M.getSourceFileName();
  }
  return P;
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

uint64_t SiteTable::addSite(const Function &F, const Instruction *At,
                            snag_site_kind Kind) {
  Position P = positionOf(M, F, At);
  SiteRecord Site;
  Site.Kind = Kind;
  Site.Line = P.Line;
  Site.Column = P.Column;
  Site.File = sanitize(P.File);
  Site.LinkageName = sanitize(F.getName());
  std::string Key = (Twine(Site.LinkageName) + "|" + Site.File + "|" +
                     Twine(Site.Line) + "|" + Twine(Site.Column) + "|" +
                     Twine(static_cast<unsigned>(Kind)))
                        .str();
  unsigned Ordinal = Ordinals[Key]++;
  Site.Id = fnv1a64((Twine(Key) + "|" + Twine(Ordinal)).str());
  Sites.push_back(Site);
  return Site.Id;
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
  for (const SiteRecord &Site : Sites)
    Records->addOperand(MDTuple::get(
        Ctx, {Number(64, Site.Id), Number(32, Site.Kind),
              Number(32, Site.Line), Number(32, Site.Column),
              MDString::get(Ctx, Site.File),
              MDString::get(Ctx, Site.LinkageName)}));
}

std::vector<SiteRecord>
SiteTable::takeRecordedSites(Module &M, const DenseSet<uint64_t> &Keep) {
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
    if (!Keep.count(Site.Id))
      continue;
    Site.Kind = static_cast<snag_site_kind>(Number(Node, 1));
    Site.Line = Number(Node, 2);
    Site.Column = Number(Node, 3);
    Site.File = cast<MDString>(Node->getOperand(4))->getString().str();
    Site.LinkageName = cast<MDString>(Node->getOperand(5))->getString().str();
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
            << Site.Column << '\t' << FileIndex << '\t' << NameIndex << '\n';
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
