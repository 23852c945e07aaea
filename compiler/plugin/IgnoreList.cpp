#include "IgnoreList.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>

using namespace llvm;

namespace snag {

IgnoreList IgnoreList::fromEnvironment() {
  IgnoreList List;
  const char *Paths = std::getenv("SNAG_IGNORELIST");
  if (!Paths || !*Paths)
    return List;
  SmallVector<StringRef, 2> Parts;
  StringRef(Paths).split(Parts, ':', -1, false);
  for (StringRef Path : Parts)
    List.load(Path);
  return List;
}

void IgnoreList::load(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path);
  if (!File)
    report_fatal_error(Twine("snag: cannot read the ignore list ") + Path + ": " +
                           File.getError().message(),
                       false);
  bool Applies = true; // entries before any [section] apply to every tool
  unsigned LineNo = 0;
  SmallVector<StringRef, 0> Lines;
  Texts.push_back(std::move(*File));
  Texts.back()->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    ++LineNo;
    Line = Line.trim();
    if (Line.empty() || Line.startswith("#"))
      continue;
    if (Line.startswith("[") && Line.endswith("]")) {
      Expected<GlobPattern> Section = GlobPattern::create(Line.drop_front().drop_back());
      Applies = Section && Section->match("thread");
      if (!Section)
        consumeError(Section.takeError());
      continue;
    }
    if (!Applies)
      continue;
    auto [Kind, Pattern] = Line.split(':');
    if (Pattern.contains('='))
      continue; // a category for another purpose (=init, =allow, ...)
    std::vector<GlobPattern> *Into = Kind == "fun"   ? &Functions
                                     : Kind == "src" ? &Sources
                                                     : nullptr;
    if (!Into)
      continue; // type:, global:, mainfile: ... name nothing snag instruments
    Expected<GlobPattern> Glob = GlobPattern::create(Pattern);
    if (!Glob)
      report_fatal_error(Twine("snag: ") + Path + ":" + Twine(LineNo) + ": bad pattern '" +
                             Pattern + "': " + toString(Glob.takeError()),
                         false);
    Into->push_back(std::move(*Glob));
  }
}

bool IgnoreList::ignoresMemory(const Function &F) const {
  for (const GlobPattern &P : Functions)
    if (P.match(F.getName()))
      return true;
  StringRef Source = F.getParent()->getSourceFileName();
  for (const GlobPattern &P : Sources)
    if (P.match(Source))
      return true;
  return false;
}

} // namespace snag
