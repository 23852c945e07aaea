// Where things happened and what to call them: source sites at the innermost
// user frame (never inside a system header), variable and field names from
// debug info, thread descriptions, and the findings of one run (races from
// the happens-before detector, deadlocks from lock order and from every
// thread being blocked in a wait-for cycle).
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Instruction.h>
#include <llvm/Support/Path.h>

#include "interp/ir/machine.h"

namespace snag::interp::ir {

namespace {

// An absolute path without "." and ".." (clang names libstdc++ headers
// /usr/bin/../lib/gcc/.../../../../include/c++/12/...).
std::string JoinPath(llvm::StringRef directory, llvm::StringRef file) {
  llvm::SmallString<256> path;
  if (file.startswith("/") || directory.empty()) {
    path = file;
  } else {
    path = directory;
    llvm::sys::path::append(path, file);
  }
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return path.str().str();
}

bool IsSystemPath(const std::string& path) {
  return path.rfind("/usr/include/", 0) == 0 || path.rfind("/usr/lib/", 0) == 0 ||
         path.rfind("/usr/local/include/", 0) == 0;
}

// Strips typedefs, const, volatile and member wrappers down to the type that
// has the layout.
const llvm::DIType* Underlying(const llvm::DIType* type) {
  while (auto* d = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
    const unsigned tag = d->getTag();
    if (tag != llvm::dwarf::DW_TAG_typedef && tag != llvm::dwarf::DW_TAG_const_type &&
        tag != llvm::dwarf::DW_TAG_volatile_type && tag != llvm::dwarf::DW_TAG_member &&
        tag != llvm::dwarf::DW_TAG_atomic_type)
      break;
    type = d->getBaseType();
  }
  return type;
}

// "name.field.sub" for the byte at `offset` inside a value of `type`.
std::string FieldPath(const llvm::DIType* type, uint64_t offset, int depth = 0) {
  type = Underlying(type);
  auto* composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(type);
  if (!composite || depth > 8) return {};
  // Inside library types (std::vector's _M_impl...) the user's variable is
  // the better name.
  if (composite->getFile() &&
      IsSystemPath(JoinPath(composite->getFile()->getDirectory(), composite->getFile()->getFilename())))
    return {};
  if (composite->getTag() == llvm::dwarf::DW_TAG_array_type) {
    const llvm::DIType* element = Underlying(composite->getBaseType());
    const uint64_t size = element ? element->getSizeInBits() / 8 : 0;
    if (size == 0) return {};
    return "[" + std::to_string(offset / size) + "]" + FieldPath(element, offset % size, depth + 1);
  }
  for (const llvm::DINode* node : composite->getElements()) {
    auto* member = llvm::dyn_cast<llvm::DIDerivedType>(node);
    if (!member || member->getTag() != llvm::dwarf::DW_TAG_member) continue;
    if (member->getFlags() & llvm::DINode::FlagStaticMember) continue;
    const uint64_t begin = member->getOffsetInBits() / 8;
    const uint64_t size = std::max<uint64_t>(member->getSizeInBits() / 8, 1);
    if (offset >= begin && offset < begin + size)
      return "." + member->getName().str() + FieldPath(member->getBaseType(), offset - begin, depth + 1);
  }
  // Base classes hold fields too.
  for (const llvm::DINode* node : composite->getElements()) {
    auto* inherit = llvm::dyn_cast<llvm::DIDerivedType>(node);
    if (!inherit || inherit->getTag() != llvm::dwarf::DW_TAG_inheritance) continue;
    const uint64_t begin = inherit->getOffsetInBits() / 8;
    if (offset >= begin) {
      std::string inner = FieldPath(inherit->getBaseType(), offset - begin, depth + 1);
      if (!inner.empty()) return inner;
    }
  }
  return {};
}

}  // namespace

bool Machine::IsSystemFunction(const llvm::Function* f) const {
  auto it = system_.find(f);
  if (it != system_.end()) return it->second;
  bool system = true;  // no debug info: not user code we can point at
  if (const llvm::DISubprogram* sp = f->getSubprogram())
    system = IsSystemPath(JoinPath(sp->getDirectory(), sp->getFilename()));
  system_[f] = system;
  return system;
}

const SourceSite& Machine::SiteOf(const llvm::Instruction& at) { return sites_[SiteIndex(at)]; }

uint32_t Machine::SiteIndex(const llvm::Instruction& at) {
  auto it = site_index_.find(&at);
  if (it != site_index_.end()) return it->second;
  SourceSite site;
  if (const llvm::DILocation* loc = at.getDebugLoc().get()) {
    site.file = JoinPath(loc->getDirectory(), loc->getFilename());
    site.line = loc->getLine();
    site.column = loc->getColumn();
  }
  const llvm::Function* f = at.getFunction();
  if (site.line != 0 && site_function_.find(site) == site_function_.end()) {
    auto d = demangled_.find(f);
    if (d == demangled_.end()) d = demangled_.emplace(f, llvm::demangle(f->getName().str())).first;
    site_function_[site] = d->second;
  }
  const uint32_t index = static_cast<uint32_t>(sites_.size());
  sites_.push_back(std::move(site));
  site_index_[&at] = index;
  return index;
}

uint32_t Machine::UserSiteIndex(Thread& t, const llvm::Instruction& at) {
  for (size_t i = t.frames.size(); i-- > 0;) {
    const Frame& f = t.frames[i];
    if (f.system) continue;
    const llvm::Instruction* inst = (i + 1 == t.frames.size()) ? &at : f.pc;
    const uint32_t index = SiteIndex(*inst);
    if (sites_[index].line != 0) return index;
  }
  return SiteIndex(at);
}

const SourceSite& Machine::UserSite(Thread& t, const llvm::Instruction& at, std::string* function) {
  const SourceSite& site = sites_[UserSiteIndex(t, at)];
  if (function) *function = site_function_[site];
  return site;
}

void Machine::Note(const llvm::Instruction& at, const std::string& message) {
  findings_.Note(SiteOf(at), message);
}

std::string Machine::ThreadName(ThreadId id) const {
  return id < threads_.size() ? threads_[id]->description : "thread T" + std::to_string(id);
}

std::string Machine::VariableName(uint64_t address) {
  const Memory::NameInfo info = memory_.NameAt(address);
  if (info.name.empty()) return {};
  const llvm::DIType* type = info.type;
  // A class only declared in this unit's debug info: use its definition.
  if (auto* c = llvm::dyn_cast_or_null<llvm::DICompositeType>(type); c && (c->getFlags() & llvm::DINode::FlagFwdDecl)) {
    IndexComposites();
    auto it = composite_by_name_.find(info.name);
    if (it != composite_by_name_.end()) type = it->second;
  }
  return info.name + FieldPath(type, address - info.base);
}

void Machine::IndexComposites() {
  if (composites_indexed_) return;
  {
    composites_indexed_ = true;
    llvm::DebugInfoFinder finder;
    finder.processModule(module_);
    for (const llvm::DIType* t : finder.types()) {
      auto* c = llvm::dyn_cast<llvm::DICompositeType>(t);
      if (!c || c->getName().empty() || (c->getFlags() & llvm::DINode::FlagFwdDecl)) continue;
      std::string name = c->getName().str();
      for (const llvm::DIScope* s = c->getScope(); s; s = s->getScope()) {
        if (s->getName().empty()) break;
        name = s->getName().str() + "::" + name;
      }
      composite_by_name_.emplace(name, c);
    }
  }
}

std::pair<std::string, const llvm::DIType*> Machine::HeapTypeOf(const llvm::Instruction& call) {
  auto cached = heap_type_.find(&call);
  if (cached != heap_type_.end()) return cached->second;
  IndexComposites();
  std::pair<std::string, const llvm::DIType*> found;
  for (const llvm::User* u : call.users()) {
    auto* cast = llvm::dyn_cast<llvm::BitCastInst>(u);
    if (!cast) continue;
    auto* pointer = llvm::dyn_cast<llvm::PointerType>(cast->getType());
    if (!pointer || pointer->isOpaque()) continue;
    auto* st = llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
    if (!st || !st->hasName()) continue;
    llvm::StringRef name = st->getName();
    for (llvm::StringRef prefix : {"class.", "struct.", "union."})
      if (name.startswith(prefix)) name = name.drop_front(prefix.size());
    // Clang numbers same-named types: "class.Foo.12".
    const size_t dot = name.rfind('.');
    if (dot != llvm::StringRef::npos && dot + 1 < name.size() &&
        name.drop_front(dot + 1).find_first_not_of("0123456789") == llvm::StringRef::npos)
      name = name.take_front(dot);
    auto it = composite_by_name_.find(name.str());
    found = {name.str(), it == composite_by_name_.end() ? nullptr : it->second};
    break;
  }
  heap_type_.emplace(&call, found);
  return found;
}

void Machine::ReportRaces() {
  for (const Race& race : sync_->races().races()) {
    CheckFinding finding;
    finding.kind = CheckFinding::Kind::kRace;
    finding.entry = entry_;
    std::string name = VariableName(race.address);
    if (name.empty()) name = race.variable;
    finding.variable = name;
    finding.message = name.empty() ? "data race" : "data race on '" + name + "'";
    for (const AccessSide* side : {&race.earlier, &race.later}) {
      FindingSide s;
      s.site = side->site;
      s.thread = ThreadName(side->thread);
      s.is_write = side->is_write;
      auto fn = site_function_.find(side->site);
      if (fn != site_function_.end()) s.function = fn->second;
      finding.sides.push_back(std::move(s));
    }
    findings_.Add(std::move(finding));
  }
}

void Machine::ReportLockOrder() {
  for (const Deadlock& d : sync_->lock_order().deadlocks()) {
    CheckFinding finding;
    finding.kind = CheckFinding::Kind::kDeadlock;
    finding.entry = entry_;
    finding.message = d.self ? "deadlock: a thread locks a mutex it already holds"
                             : "potential deadlock: lock-order inversion";
    std::set<SourceSite> seen;
    for (const LockEdge& e : d.cycle) {
      for (const SourceSite* site : {&e.held_site, &e.acquired_site}) {
        if (!seen.insert(*site).second) continue;
        FindingSide s;
        s.site = *site;
        s.thread = ThreadName(e.thread);
        auto fn = site_function_.find(*site);
        if (fn != site_function_.end()) s.function = fn->second;
        finding.sides.push_back(std::move(s));
      }
    }
    findings_.Add(std::move(finding));
  }
}

void Machine::CheckAllBlocked() {
  // Every thread that is not done waits: follow who waits for whom.
  auto waits_for = [&](const Thread& t) -> std::optional<ThreadId> {
    switch (t.state) {
      case Thread::State::kMutex:
        return sync_->Owner(t.wait_on);
      case Thread::State::kJoin:
        return static_cast<ThreadId>(t.wait_on);
      case Thread::State::kRwWrite:
      case Thread::State::kRwRead: {
        auto it = rwlocks_.find(t.wait_on);
        if (it == rwlocks_.end()) return std::nullopt;
        if (it->second.writer) return it->second.writer_id;
        if (!it->second.readers.empty()) return *it->second.readers.begin();
        return std::nullopt;
      }
      case Thread::State::kCond:
        // Whoever could notify: prefer a thread stuck on a lock this one holds.
        for (const auto& other : threads_) {
          if (other.get() == &t || other->state != Thread::State::kMutex) continue;
          if (sync_->Owner(other->wait_on) == t.id) return other->id;
        }
        return std::nullopt;
      default:
        return std::nullopt;
    }
  };
  for (const auto& start : threads_) {
    if (start->state == Thread::State::kDone) continue;
    std::vector<ThreadId> path;
    std::set<ThreadId> on_path;
    std::optional<ThreadId> at = start->id;
    while (at && !on_path.count(*at)) {
      path.push_back(*at);
      on_path.insert(*at);
      at = waits_for(*threads_[*at]);
    }
    if (!at) continue;
    // The cycle starts where `at` first appeared on the path.
    auto begin = std::find(path.begin(), path.end(), *at);
    std::vector<ThreadId> cycle(begin, path.end());
    CheckFinding finding;
    finding.kind = CheckFinding::Kind::kDeadlock;
    finding.entry = entry_;
    bool join = false;
    bool cond = false;
    std::set<SourceSite> seen;
    auto add = [&](const SourceSite& site, ThreadId thread, const std::string& function) {
      if (site.line == 0 || !seen.insert(site).second) return;
      FindingSide s;
      s.site = site;
      s.thread = ThreadName(thread);
      s.function = function;
      finding.sides.push_back(std::move(s));
    };
    for (ThreadId id : cycle) {
      const Thread& t = *threads_[id];
      if (t.state == Thread::State::kJoin) join = true;
      if (t.state == Thread::State::kCond) cond = true;
      if (t.state == Thread::State::kMutex) {
        auto held = held_site_.find(t.wait_on);
        auto owner = sync_->Owner(t.wait_on);
        if (held != held_site_.end() && owner) add(held->second, *owner, held_function_[t.wait_on]);
      }
      if (t.state == Thread::State::kRwRead || t.state == Thread::State::kRwWrite) {
        if (auto owner = waits_for(t)) {
          auto held = rw_site_.find({t.wait_on, *owner});
          if (held != rw_site_.end()) add(held->second.first, *owner, held->second.second);
        }
      }
      add(t.wait_site, id, t.wait_function);
    }
    if (cycle.size() == 1 && threads_[cycle[0]]->state == Thread::State::kMutex)
      finding.message = "deadlock: a thread locks a mutex it already holds";
    else if (cond)
      finding.message = "deadlock: a thread waits on a condition variable while holding a lock the notifying thread needs";
    else if (join)
      finding.message = "deadlock: join() waits for a thread that needs a lock the joining thread holds";
    else
      finding.message = "deadlock: threads wait for each other's locks in a cycle";
    findings_.Add(std::move(finding));
    return;  // one hang per run
  }
}

// ---------------------------------------------------------------- findings

void Findings::Add(CheckFinding finding) {
  std::set<std::pair<std::string, unsigned>> lines;
  for (const FindingSide& s : finding.sides) lines.emplace(s.site.file, s.site.line);
  if (lines.empty()) return;
  if (!seen_.emplace(static_cast<int>(finding.kind), lines).second) return;
  result_.findings.push_back(std::move(finding));
}

void Findings::Note(const SourceSite& site, const std::string& message) {
  if (!noted_.emplace(site, message).second) return;
  result_.notes.push_back(CheckNote{site, message});
}

}  // namespace snag::interp::ir
