// CheckModule: finds the entries of a module (static constructors, main,
// GoogleTest bodies, in-the-middle starts of library classes) and interprets
// each several times with seeds derived from the user's seed, until the step
// budget is spent.
#include "interp/ir/checker.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

#include "interp/ir/machine.h"

namespace snag::interp {

namespace {

using ir::Machine;
using ir::RV;
using ir::Task;

struct Entry {
  std::string name;
  std::function<std::vector<Task>(Machine&)> tasks;
  unsigned runs = 1;
};

uint64_t Mix(uint64_t x) {  // splitmix64: decorrelated seeds from one seed
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::vector<const llvm::Function*> StaticConstructors(const llvm::Module& m) {
  std::vector<std::pair<uint64_t, const llvm::Function*>> ctors;
  const llvm::GlobalVariable* g = m.getGlobalVariable("llvm.global_ctors");
  if (g && g->hasInitializer()) {
    if (auto* array = llvm::dyn_cast<llvm::ConstantArray>(g->getInitializer())) {
      for (const llvm::Use& u : array->operands()) {
        auto* entry = llvm::dyn_cast<llvm::ConstantStruct>(u.get());
        if (!entry || entry->getNumOperands() < 2) continue;
        auto* priority = llvm::dyn_cast<llvm::ConstantInt>(entry->getOperand(0));
        auto* fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(1)->stripPointerCasts());
        if (fn && !fn->isDeclaration())
          ctors.emplace_back(priority ? priority->getZExtValue() : 65535, fn);
      }
    }
  }
  std::stable_sort(ctors.begin(), ctors.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const llvm::Function*> out;
  for (auto& c : ctors) out.push_back(c.second);
  return out;
}

std::vector<RV> UnknownArgs(const Machine& m, const llvm::Function* f) {
  std::vector<RV> args;
  for (const llvm::Argument& a : f->args()) args.push_back(m.UnknownOf(a.getType()));
  return args;
}

bool EndsWith(llvm::StringRef s, llvm::StringRef suffix) { return s.endswith(suffix); }

// Does a debug type (a class) own a mutex, condition variable or thread?
bool OwnsSync(const llvm::DIType* type, int depth = 0) {
  if (!type || depth > 6) return false;
  while (auto* d = llvm::dyn_cast<llvm::DIDerivedType>(type)) {
    if (d->getTag() == llvm::dwarf::DW_TAG_pointer_type ||
        d->getTag() == llvm::dwarf::DW_TAG_reference_type)
      return false;
    const llvm::DIType* base = d->getBaseType();
    if (!base) return false;
    type = base;
  }
  auto* c = llvm::dyn_cast<llvm::DICompositeType>(type);
  if (!c) return false;
  const std::string name = c->getName().str();
  if (name.find("mutex") != std::string::npos || name.find("condition_variable") != std::string::npos ||
      name == "thread" || name == "jthread" || name.rfind("atomic", 0) == 0)
    return true;
  if (c->getTag() == llvm::dwarf::DW_TAG_array_type) return OwnsSync(c->getBaseType(), depth + 1);
  for (const llvm::DINode* n : c->getElements()) {
    auto* member = llvm::dyn_cast<llvm::DIDerivedType>(n);
    if (!member) continue;
    if (member->getTag() != llvm::dwarf::DW_TAG_member &&
        member->getTag() != llvm::dwarf::DW_TAG_inheritance)
      continue;
    if (member->getFlags() & llvm::DINode::FlagStaticMember) continue;
    if (OwnsSync(member->getBaseType(), depth + 1)) return true;
  }
  return false;
}

// The same from the IR type, for classes whose debug type is only a forward
// declaration in this translation unit (clang's default -g).
// Does the function start a thread itself?
bool StartsThreads(const llvm::Function& f) {
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i))
        if (auto* callee = llvm::dyn_cast<llvm::Function>(call->getCalledOperand()->stripPointerCasts())) {
          const llvm::StringRef n = callee->getName();
          if (n.startswith("_ZNSt6threadC") || n.startswith("_ZNSt7jthreadC") || n == "pthread_create" ||
              n == "thrd_create" || n.startswith("_ZSt5async") ||
              n.startswith("_ZNSt6vectorISt6threadSaIS0_EE12emplace_back"))
            return true;
        }
  return false;
}

// The struct `this` points to, for a member function.
const llvm::StructType* ThisType(const llvm::Function& f, unsigned this_index) {
  if (this_index >= f.arg_size()) return nullptr;
  auto* pointer = llvm::dyn_cast<llvm::PointerType>(f.getArg(this_index)->getType());
  if (!pointer || pointer->isOpaque()) return nullptr;
  auto* st = llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
  if (!st || st->isOpaque() || !st->isSized()) return nullptr;
  return st;
}

bool OwnsSyncType(const llvm::Type* type, int depth = 0) {
  if (depth > 6) return false;
  if (auto* st = llvm::dyn_cast<llvm::StructType>(type)) {
    if (st->hasName()) {
      const llvm::StringRef name = st->getName();
      if (name.contains("mutex") || name.contains("condition_variable") ||
          name == "class.std::thread" || name == "class.std::jthread")
        return true;
    }
    for (const llvm::Type* e : st->elements())
      if (OwnsSyncType(e, depth + 1)) return true;
    return false;
  }
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(type)) return OwnsSyncType(at->getElementType(), depth + 1);
  return false;
}

// In-the-middle starts (paper 001): public member functions of user classes
// that own a mutex, called concurrently in pairs on one invented object
// (zeroed, then built by the default constructor when the module has one).
void LibraryEntries(const llvm::Module& module, Machine& machine, std::vector<Entry>& entries,
                    const std::vector<const llvm::Function*>& ctors) {
  struct Method {
    const llvm::Function* fn;
    unsigned this_index;
  };
  std::map<const llvm::StructType*, std::vector<Method>> methods;
  std::map<const llvm::StructType*, const llvm::Function*> default_ctor;
  std::map<const llvm::StructType*, std::string> class_names;
  std::map<const llvm::StructType*, const llvm::DICompositeType*> class_types;
  // Classes one of whose member functions starts a thread also qualify.
  std::set<const llvm::StructType*> starts_threads;
  for (const llvm::Function& f : module) {
    if (f.isDeclaration() || machine.IsSystemFunction(&f) || !StartsThreads(f)) continue;
    const unsigned index = f.arg_size() > 0 && f.hasParamAttribute(0, llvm::Attribute::StructRet) ? 1 : 0;
    if (const llvm::StructType* st = ThisType(f, index)) starts_threads.insert(st);
  }
  for (const llvm::Function& f : module) {
    if (f.isDeclaration() || machine.IsSystemFunction(&f)) continue;
    const llvm::DISubprogram* sp = f.getSubprogram();
    if (!sp) continue;
    const llvm::DISubprogram* decl = sp->getDeclaration() ? sp->getDeclaration() : sp;
    auto* cls = llvm::dyn_cast_or_null<llvm::DICompositeType>(decl->getScope());
    if (!cls) continue;
    const llvm::StringRef name = f.getName();
    // `this` is the first argument that is not the sret slot.
    unsigned this_index = 0;
    if (f.arg_size() > 0 && f.hasParamAttribute(0, llvm::Attribute::StructRet)) this_index = 1;
    if (this_index >= f.arg_size()) continue;
    auto* this_type = llvm::dyn_cast<llvm::PointerType>(f.getArg(this_index)->getType());
    if (!this_type || this_type->isOpaque()) continue;
    auto* object = llvm::dyn_cast<llvm::StructType>(this_type->getNonOpaquePointerElementType());
    if (!object || object->isOpaque() || !object->isSized()) continue;
    if (!OwnsSync(cls) && !OwnsSyncType(object) && !starts_threads.count(object)) continue;
    // Constructors, templated ones too (`C2I...E`: spdlog's logger<It>(...)
    // was taken for a method and two constructions of one object raced).
    const bool is_ctor = name.contains("C2E") || name.contains("C1E") || name.contains("C2I") ||
                         name.contains("C1I") || decl->getName() == cls->getName();
    const bool is_dtor = name.contains("D0E") || name.contains("D1E") || name.contains("D2E");
    if (is_ctor) {
      if (f.arg_size() == 1 && !default_ctor.count(object)) default_ctor[object] = &f;
      continue;
    }
    if (is_dtor || name.contains("aSE")) continue;  // destructors, assignment
    const auto access = decl->getFlags() & llvm::DINode::FlagAccessibility;
    if (access == llvm::DINode::FlagPrivate || access == llvm::DINode::FlagProtected) continue;
    if (access == 0 && cls->getTag() == llvm::dwarf::DW_TAG_class_type) continue;
    methods[object].push_back({&f, this_index});
    class_names[object] = cls->getName().str();
    class_types[object] = cls;
  }
  // Public free functions of a TU that has mutable globals: pairs of them
  // may race on those globals (the object is then the TU itself).
  bool has_mutable_globals = false;
  for (const llvm::GlobalVariable& g : module.globals()) {
    if (g.isDeclaration() || g.isConstant() || g.getName().startswith("llvm.")) continue;
    llvm::SmallVector<llvm::DIGlobalVariableExpression*, 1> dbg;
    g.getDebugInfo(dbg);
    if (!dbg.empty()) has_mutable_globals = true;
  }
  std::vector<const llvm::Function*> free_functions;
  if (has_mutable_globals) {
    for (const llvm::Function& f : module) {
      if (f.isDeclaration() || f.hasLocalLinkage() || machine.IsSystemFunction(&f)) continue;
      const llvm::DISubprogram* sp = f.getSubprogram();
      if (!sp || f.getName() == "main") continue;
      const llvm::DISubprogram* decl = sp->getDeclaration() ? sp->getDeclaration() : sp;
      if (llvm::isa_and_nonnull<llvm::DICompositeType>(decl->getScope())) continue;
      free_functions.push_back(&f);
    }
  }
  for (size_t i = 0; i < free_functions.size(); ++i) {
    for (size_t j = i; j < free_functions.size(); ++j) {
      const llvm::Function* a = free_functions[i];
      const llvm::Function* b = free_functions[j];
      Entry e;
      e.name = llvm::demangle(a->getName().str()) + " || " + llvm::demangle(b->getName().str());
      e.runs = 2;
      e.tasks = [=](Machine& m) {
        std::vector<Task> tasks;
        for (const llvm::Function* c : ctors) tasks.push_back(Task{Task::Kind::kCall, c, nullptr, {}, {}});
        Task pair;
        pair.kind = Task::Kind::kSpawnPair;
        pair.fn = a;
        pair.args = UnknownArgs(m, a);
        pair.second = b;
        pair.second_args = UnknownArgs(m, b);
        tasks.push_back(std::move(pair));
        tasks.push_back(Task{Task::Kind::kJoinAll, nullptr, nullptr, {}, {}});
        return tasks;
      };
      entries.push_back(std::move(e));
      if (entries.size() >= 32) break;
    }
    if (entries.size() >= 32) break;
  }

  for (auto& [object_type, list] : methods) {
    const llvm::Function* ctor = default_ctor.count(object_type) ? default_ctor[object_type] : nullptr;
    const uint64_t size = std::max<uint64_t>(
        module.getDataLayout().getTypeAllocSize(const_cast<llvm::StructType*>(object_type)).getFixedSize(), 8);
    const std::string class_name = class_names[object_type];
    const llvm::DICompositeType* class_type = class_types[object_type];
    for (size_t i = 0; i < list.size(); ++i) {
      for (size_t j = i; j < list.size(); ++j) {
        const Method a = list[i], b = list[j];
        Entry e;
        e.name = llvm::demangle(a.fn->getName().str()) + " || " + llvm::demangle(b.fn->getName().str());
        e.runs = 2;
        e.tasks = [=](Machine& m) {
          std::vector<Task> tasks;
          for (const llvm::Function* c : ctors) tasks.push_back(Task{Task::Kind::kCall, c, nullptr, {}, {}});
          const uint64_t object = m.AllocateObject(size, class_name, class_type);
          if (!ctor) m.InitRecursiveMutexes(object, object_type);
          if (ctor) tasks.push_back(Task{Task::Kind::kCall, ctor, nullptr, {RV::Bits(object)}, {}});
          auto args_for = [&](const Method& method) {
            std::vector<RV> args = UnknownArgs(m, method.fn);
            args[method.this_index] = RV::Bits(object);
            if (method.this_index == 1) {
              const llvm::Type* ret = method.fn->getParamStructRetType(0);
              const uint64_t ret_size =
                  ret && ret->isSized() ? m.layout().getTypeAllocSize(const_cast<llvm::Type*>(ret)).getFixedSize() : 64;
              args[0] = RV::Bits(m.AllocateObject(ret_size, ""));
            }
            return args;
          };
          Task pair;
          pair.kind = Task::Kind::kSpawnPair;
          pair.fn = a.fn;
          pair.args = args_for(a);
          pair.second = b.fn;
          pair.second_args = args_for(b);
          tasks.push_back(std::move(pair));
          tasks.push_back(Task{Task::Kind::kJoinAll, nullptr, nullptr, {}, {}});
          return tasks;
        };
        entries.push_back(std::move(e));
        if (entries.size() >= 64) return;
      }
    }
  }
}

// In-the-middle starts for a program whose main never got far enough:
// user functions that start threads themselves (std::thread, jthread,
// pthread_create, thrd_create, std::async), each called on a zeroed object
// (methods) with unknown arguments.
std::vector<Entry> ThreadStarterEntries(const llvm::Module& module, Machine& machine,
                                        const std::vector<const llvm::Function*>& ctors) {
  // Level 0 starts threads itself; level 1 and 2 call a lower level (a
  // project's own thread wrapper, then the code using it).
  auto calls_any = [](const llvm::Function& f, const std::function<bool(const llvm::Function*)>& pred) {
    for (const llvm::BasicBlock& bb : f)
      for (const llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i))
          if (auto* callee = llvm::dyn_cast<llvm::Function>(call->getCalledOperand()->stripPointerCasts()))
            if (pred(callee)) return true;
    return false;
  };
  std::set<const llvm::Function*> starters;
  std::vector<const llvm::Function*> ordered;
  std::set<const llvm::Function*> level = {};
  for (int depth = 0; depth < 3; ++depth) {
    std::set<const llvm::Function*> next;
    for (const llvm::Function& f : module) {
      if (f.isDeclaration() || machine.IsSystemFunction(&f) || f.getName() == "main" || starters.count(&f))
        continue;
      const bool found = depth == 0 ? calls_any(f, [](const llvm::Function* c) {
        const llvm::StringRef n = c->getName();
        return n.startswith("_ZNSt6threadC") || n.startswith("_ZNSt7jthreadC") || n == "pthread_create" ||
               n == "thrd_create" || n.startswith("_ZSt5async");
      })
                                    : calls_any(f, [&](const llvm::Function* c) { return level.count(c) > 0; });
      if (found) next.insert(&f);
    }
    for (const llvm::Function& f : module)
      if (next.count(&f)) ordered.push_back(&f);
    starters.insert(next.begin(), next.end());
    level = std::move(next);
  }
  std::vector<Entry> out;
  for (const llvm::Function* fp : ordered) {
    const llvm::Function& f = *fp;
    const llvm::Function* fn = &f;
    uint64_t object_size = 0;
    const llvm::DISubprogram* sp = f.getSubprogram();
    const llvm::DISubprogram* decl = sp && sp->getDeclaration() ? sp->getDeclaration() : sp;
    if (decl && llvm::isa_and_nonnull<llvm::DICompositeType>(decl->getScope()) && f.arg_size() > 0) {
      if (auto* p = llvm::dyn_cast<llvm::PointerType>(f.getArg(0)->getType()); p && !p->isOpaque()) {
        auto* st = llvm::dyn_cast<llvm::StructType>(p->getNonOpaquePointerElementType());
        if (st && st->isSized()) object_size = module.getDataLayout().getTypeAllocSize(st).getFixedSize();
      }
    }
    Entry e;
    e.name = llvm::demangle(f.getName().str());
    e.runs = 2;
    e.tasks = [fn, object_size, ctors](Machine& m) {
      std::vector<Task> tasks;
      for (const llvm::Function* c : ctors) tasks.push_back(Task{Task::Kind::kCall, c, nullptr, {}, {}});
      std::vector<RV> args = UnknownArgs(m, fn);
      if (object_size > 0) args[0] = RV::Bits(m.AllocateObject(object_size, ""));
      tasks.push_back(Task{Task::Kind::kCall, fn, nullptr, std::move(args), {}});
      return tasks;
    };
    out.push_back(std::move(e));
    if (out.size() >= 32) break;
  }
  return out;
}

}  // namespace

CheckResult CheckModule(llvm::Module& module, const CheckOptions& options) {
  ir::Findings findings;
  Machine machine(module, options, findings);
  const std::vector<const llvm::Function*> ctors = StaticConstructors(module);
  auto with_ctors = [ctors](std::vector<Task> rest) {
    std::vector<Task> tasks;
    for (const llvm::Function* c : ctors) tasks.push_back(Task{Task::Kind::kCall, c, nullptr, {}, {}});
    for (Task& t : rest) tasks.push_back(std::move(t));
    return tasks;
  };

  std::vector<Entry> entries;
  const llvm::Function* main = module.getFunction("main");
  if (main && !main->isDeclaration()) {
    Entry e;
    e.name = "main";
    e.runs = 8;  // unknown argc/argv and inputs: both sides get explored
    e.tasks = [main, with_ctors](Machine& m) {
      return with_ctors({Task{Task::Kind::kCall, main, nullptr, UnknownArgs(m, main), {}}});
    };
    entries.push_back(std::move(e));
  }
  // GoogleTest: each TEST/TEST_F body, on a zeroed object built by its
  // constructor when one is in the module.
  for (const llvm::Function& f : module) {
    if (f.isDeclaration() || !EndsWith(f.getName(), "8TestBodyEv") || machine.IsSystemFunction(&f))
      continue;
    const std::string prefix = f.getName().drop_back(std::strlen("8TestBodyEv")).str();
    const llvm::Function* ctor = module.getFunction(prefix + "C2Ev");
    if (!ctor) ctor = module.getFunction(prefix + "C1Ev");
    if (ctor && ctor->isDeclaration()) ctor = nullptr;
    Entry e;
    std::string name = llvm::demangle(f.getName().str());
    e.name = name.substr(0, name.rfind("::TestBody"));
    e.runs = 4;
    const llvm::Function* body = &f;
    e.tasks = [body, ctor, with_ctors](Machine& m) {
      const uint64_t object = m.AllocateObject(512, "");
      std::vector<Task> rest;
      if (ctor) rest.push_back(Task{Task::Kind::kCall, ctor, nullptr, {RV::Bits(object)}, {}});
      // testing::Test's vtable: two destructors, SetUp (slot 2), TearDown (3).
      rest.push_back(Task{Task::Kind::kVirtual, nullptr, nullptr, {RV::Bits(object)}, {}, 2});
      rest.push_back(Task{Task::Kind::kCall, body, nullptr, {RV::Bits(object)}, {}});
      rest.push_back(Task{Task::Kind::kVirtual, nullptr, nullptr, {RV::Bits(object)}, {}, 3});
      return with_ctors(std::move(rest));
    };
    entries.push_back(std::move(e));
  }
  if (entries.empty()) LibraryEntries(module, machine, entries, ctors);
  if (entries.empty())
    throw std::runtime_error(
        "nothing to check: no main, no GoogleTest test and no public member function of a class "
        "that owns a mutex or starts threads");

  CheckResult& result = findings.result();
  uint64_t used = 0;
  uint64_t run_index = 0;
  // Round-robin over entries so every entry gets its first run before any
  // gets its second. Each entry has its minimum runs; after that it goes on
  // while its recent runs still reach code no earlier run of it reached or
  // find something new (another side of a branch on unknown input), until
  // the total budget is spent.
  constexpr unsigned kQuietRuns = 8;   // runs without news before an entry stops
  constexpr unsigned kMaxRuns = 256;   // per entry
  struct Progress {
    unsigned runs = 0;
    unsigned quiet = 0;
    std::set<const llvm::BasicBlock*> covered;
  };
  std::vector<Progress> progress(entries.size());
  const bool has_main = main && !main->isDeclaration();
  bool starters_added = false;
  bool any = true;
  while (any && used < options.max_steps_total) {
    any = false;
    for (size_t i = 0; i < entries.size() && used < options.max_steps_total; ++i) {
      const Entry& e = entries[i];
      Progress& p = progress[i];
      if (p.runs >= kMaxRuns || (p.runs >= e.runs && p.quiet >= kQuietRuns)) continue;
      any = true;
      const uint64_t budget = std::min(options.max_steps_per_run, options.max_steps_total - used);
      const size_t findings_before = result.findings.size();
      const uint64_t steps = machine.Run(e.name, e.tasks, Mix(options.seed + run_index), budget);
      used += steps;
      ++run_index;
      if (p.runs == 0) result.entries.push_back(e.name);
      ++p.runs;
      size_t new_blocks = 0;
      for (const llvm::BasicBlock* b : machine.covered()) new_blocks += p.covered.insert(b).second;
      if (new_blocks > 0 || result.findings.size() > findings_before) p.quiet = 0;
      else ++p.quiet;
      // (last: `e` and `p` are not used after the vectors grow)
      if (has_main && i == 0 && steps >= options.max_steps_per_run && !starters_added) {
        // main spent a whole run before returning (long loops, servers): the
        // code that starts threads may never have been reached from it.
        starters_added = true;
        for (Entry& extra : ThreadStarterEntries(module, machine, ctors)) entries.push_back(std::move(extra));
        progress.resize(entries.size());
      }
    }
  }
  result.steps = used;
  result.runs = run_index;
  return result;
}

}  // namespace snag::interp
