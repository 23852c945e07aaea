// The instruction interpreter: operands, constants, arithmetic, memory,
// control flow and the scheduler. Calls and models are in calls.cpp and
// models.cpp; naming and reporting in report.cpp.
#include "interp/ir/machine.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace snag::interp::ir {

namespace {

uint64_t Mask(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

int64_t SignExtend(uint64_t v, unsigned bits) {
  if (bits >= 64 || bits == 0) return static_cast<int64_t>(v);
  const unsigned shift = 64 - bits;
  return static_cast<int64_t>(v << shift) >> shift;
}

// Width of an integer or pointer type in bits; 0 for anything else.
unsigned ScalarBits(const llvm::Type* t) {
  if (t->isIntegerTy()) return t->getIntegerBitWidth();
  if (t->isPointerTy()) return 64;
  return 0;
}

bool IsFloat(const llvm::Type* t) { return t->isFloatTy(); }
bool IsDouble(const llvm::Type* t) { return t->isDoubleTy(); }

double AsDouble(uint64_t bits, const llvm::Type* t) {
  if (IsFloat(t)) return std::bit_cast<float>(static_cast<uint32_t>(bits));
  return std::bit_cast<double>(bits);
}

uint64_t FromDouble(double d, const llvm::Type* t) {
  if (IsFloat(t)) return std::bit_cast<uint32_t>(static_cast<float>(d));
  return std::bit_cast<uint64_t>(d);
}

constexpr uint64_t kUnknownAtomic = 8;  // below every model object

bool IsAggregate(const llvm::Type* t) {
  return t->isStructTy() || t->isArrayTy() || t->isVectorTy();
}

}  // namespace

Machine::Machine(llvm::Module& module, const CheckOptions& options, Findings& findings)
    : module_(module), dl_(&module.getDataLayout()), options_(options), findings_(findings) {
  // Every function gets a fixed, non-readable address so function pointers
  // (vtables, thread entry points) can be stored and called.
  uint64_t next = Memory::kFunctionBase;
  for (const llvm::Function& f : module) {
    function_address_[&f] = next;
    functions_by_index_.push_back(&f);
    next += 16;
  }
  for (const llvm::Function& f : module) {
    uint32_t n = 0;
    for (const llvm::Argument& a : f.args()) slot_of_[&a] = n++;
    for (const llvm::BasicBlock& bb : f)
      for (const llvm::Instruction& i : bb)
        if (!i.getType()->isVoidTy()) slot_of_[&i] = n++;
    slot_count_[&f] = n;
  }
  // Names of locals from llvm.dbg.declare (allocas) for race messages.
  for (const llvm::Function& f : module) {
    for (const llvm::BasicBlock& bb : f) {
      for (const llvm::Instruction& i : bb) {
        if (auto* d = llvm::dyn_cast<llvm::DbgDeclareInst>(&i)) {
          if (const llvm::Value* a = d->getAddress())
            local_names_[a] = {d->getVariable()->getName().str(),
                               d->getVariable()->getType()};
        }
      }
    }
  }
  SetupGlobals();
}

Machine::~Machine() = default;

uint64_t Machine::FunctionAddress(const llvm::Function* f) const {
  auto it = function_address_.find(f);
  return it == function_address_.end() ? 0 : it->second;
}

const llvm::Function* Machine::FunctionAt(uint64_t address) const {
  if (address < Memory::kFunctionBase || address >= Memory::kFunctionEnd) return nullptr;
  if ((address - Memory::kFunctionBase) % 16 != 0) return nullptr;
  const uint64_t index = (address - Memory::kFunctionBase) / 16;
  return index < functions_by_index_.size() ? functions_by_index_[index] : nullptr;
}

void Machine::SetupGlobals() {
  uint64_t next = Memory::kGlobalBase;
  std::vector<const llvm::GlobalVariable*> order;
  for (const llvm::GlobalVariable& g : module_.globals()) {
    uint64_t size = 64;  // external object of unknown size: room for a few words
    llvm::Type* t = g.getValueType();
    if (t->isSized()) size = std::max<uint64_t>(dl_->getTypeAllocSize(t).getFixedSize(), 1);
    global_address_[&g] = next;
    global_index_[&g] = order.size();
    next += ((size + 15) & ~uint64_t{15}) + 16;
    order.push_back(&g);
  }
  for (const llvm::GlobalVariable* g : order) {
    MemObject o;
    o.base = global_address_[g];
    llvm::Type* t = g->getValueType();
    o.size = t->isSized() ? std::max<uint64_t>(dl_->getTypeAllocSize(t).getFixedSize(), 1) : 64;
    o.data.assign(o.size, 0);
    o.kind = MemObject::Kind::kGlobal;
    llvm::SmallVector<llvm::DIGlobalVariableExpression*, 1> dbg;
    g->getDebugInfo(dbg);
    if (!dbg.empty() && dbg[0]->getVariable()) {
      o.name = dbg[0]->getVariable()->getName().str();
      o.type = dbg[0]->getVariable()->getType();
    }
    if (g->hasInitializer()) {
      o.known.assign(o.size, 1);
      WriteConstant(o, 0, g->getInitializer());
    } else if (g->getName() == "__libc_single_threaded") {
      // glibc's flag that lets libstdc++ skip atomics (shared_ptr counts):
      // the model program is multi-threaded, so the atomic paths are taken.
      o.known.assign(o.size, 1);
    } else {
      // Defined elsewhere (libstdc++, libc): its contents are unknown.
      o.known.assign(o.size, 0);
    }
    global_images_.push_back(std::move(o));
  }
}

RV Machine::UnknownOf(const llvm::Type* type) const {
  RV r;
  if (auto* st = llvm::dyn_cast<llvm::StructType>(type)) {
    r.elems = std::make_shared<std::vector<RV>>();
    for (llvm::Type* e : st->elements()) r.elems->push_back(UnknownOf(e));
  } else if (auto* at = llvm::dyn_cast<llvm::ArrayType>(type)) {
    r.elems = std::make_shared<std::vector<RV>>(at->getNumElements(), UnknownOf(at->getElementType()));
  } else if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    r.elems = std::make_shared<std::vector<RV>>(vt->getNumElements(), UnknownOf(vt->getElementType()));
  }
  return r;
}

// ---------------------------------------------------------------- constants

void Machine::WriteConstant(MemObject& o, uint64_t offset, const llvm::Constant* c) {
  llvm::Type* t = c->getType();
  if (!t->isSized()) return;
  const uint64_t size = dl_->getTypeStoreSize(t).getFixedSize();
  if (offset + size > o.size) return;
  if (llvm::isa<llvm::ConstantAggregateZero>(c) || llvm::isa<llvm::ConstantPointerNull>(c) ||
      llvm::isa<llvm::UndefValue>(c)) {
    std::memset(o.data.data() + offset, 0, size);
    std::memset(o.known.data() + offset, 1, size);
    return;
  }
  if (auto* ds = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
    llvm::StringRef raw = ds->getRawDataValues();
    std::memcpy(o.data.data() + offset, raw.data(), std::min<uint64_t>(raw.size(), size));
    std::memset(o.known.data() + offset, 1, std::min<uint64_t>(raw.size(), size));
    return;
  }
  if (auto* st = llvm::dyn_cast<llvm::StructType>(t)) {
    const llvm::StructLayout* sl = dl_->getStructLayout(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      WriteConstant(o, offset + sl->getElementOffset(i), c->getAggregateElement(i));
    return;
  }
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(t)) {
    const uint64_t step = dl_->getTypeAllocSize(at->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      WriteConstant(o, offset + i * step, c->getAggregateElement(i));
    return;
  }
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
    const uint64_t step = dl_->getTypeAllocSize(vt->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < vt->getNumElements(); ++i)
      WriteConstant(o, offset + i * step, c->getAggregateElement(i));
    return;
  }
  RV v = EvalConstant(c);
  if (v.v.IsUnknown() || size > 8) {
    std::memset(o.known.data() + offset, 0, size);
    return;
  }
  const uint64_t bits = v.v.Bits();
  for (uint64_t i = 0; i < size; ++i) {
    o.data[offset + i] = static_cast<uint8_t>(bits >> (8 * i));
    o.known[offset + i] = 1;
  }
}

RV Machine::EvalConstant(const llvm::Constant* c) {
  auto cached = constant_cache_.find(c);
  if (cached != constant_cache_.end()) return cached->second;
  RV r;
  bool cacheable = true;
  if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) {
    if (ci->getBitWidth() <= 64) r = RV::Bits(ci->getZExtValue());
  } else if (auto* cf = llvm::dyn_cast<llvm::ConstantFP>(c)) {
    if (IsFloat(cf->getType()) || IsDouble(cf->getType()))
      r = RV::Bits(cf->getValueAPF().bitcastToAPInt().getZExtValue());
  } else if (llvm::isa<llvm::ConstantPointerNull>(c)) {
    r = RV::Bits(0);
  } else if (llvm::isa<llvm::ConstantAggregateZero>(c)) {
    if (IsAggregate(c->getType())) {
      r.elems = std::make_shared<std::vector<RV>>();
      for (unsigned i = 0;; ++i) {
        const llvm::Constant* e = c->getAggregateElement(i);
        if (!e) break;
        r.elems->push_back(EvalConstant(e));
      }
    } else {
      r = RV::Bits(0);
    }
  } else if (llvm::isa<llvm::UndefValue>(c)) {
    r = UnknownOf(c->getType());
  } else if (auto* f = llvm::dyn_cast<llvm::Function>(c)) {
    r = RV::Bits(FunctionAddress(f));
  } else if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(c)) {
    if (g->isThreadLocal()) {
      cacheable = false;
      auto key = std::make_pair(current_, g);
      auto it = tls_address_.find(key);
      if (it == tls_address_.end()) {
        const MemObject& image = global_images_[global_index_.at(g)];
        MemObject& o = memory_.Allocate(image.size, MemObject::Kind::kStack, false, image.name);
        o.data = image.data;
        o.known = image.known;
        it = tls_address_.emplace(key, o.base).first;
      }
      r = RV::Bits(it->second);
    } else {
      r = RV::Bits(global_address_.at(g));
    }
  } else if (auto* a = llvm::dyn_cast<llvm::GlobalAlias>(c)) {
    r = EvalConstant(a->getAliasee());
  } else if (auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(c)) {
    cacheable = false;  // may involve thread-local globals; cheap to recompute
    const unsigned op = ce->getOpcode();
    if (op == llvm::Instruction::GetElementPtr) {
      r = Gep(nullptr, ce);
    } else if (ce->isCast()) {
      r = Cast(op, EvalConstant(ce->getOperand(0)), ce->getOperand(0)->getType(), ce->getType());
    } else if (ce->isCompare()) {
      r = Compare(ce->getPredicate(), EvalConstant(ce->getOperand(0)),
                  EvalConstant(ce->getOperand(1)), ce->getOperand(0)->getType());
    } else if (llvm::Instruction::isBinaryOp(op)) {
      r = Binary(op, EvalConstant(ce->getOperand(0)), EvalConstant(ce->getOperand(1)), ce->getType());
    } else if (op == llvm::Instruction::Select) {
      RV cond = EvalConstant(ce->getOperand(0));
      if (!cond.v.IsUnknown()) r = EvalConstant(ce->getOperand(cond.v.Bits() ? 1 : 2));
    }
  } else if (IsAggregate(c->getType())) {
    r.elems = std::make_shared<std::vector<RV>>();
    for (unsigned i = 0;; ++i) {
      const llvm::Constant* e = c->getAggregateElement(i);
      if (!e) break;
      r.elems->push_back(EvalConstant(e));
    }
  }
  if (cacheable && !r.elems) constant_cache_[c] = r;
  return r;
}

RV Machine::Eval(Frame& f, const llvm::Value* v) {
  if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) return EvalConstant(c);
  auto it = slot_of_.find(v);
  if (it != slot_of_.end()) return f.regs[it->second];
  return UnknownOf(v->getType());
}

// -------------------------------------------------------------- arithmetic

RV Machine::Gep(Frame* f, const llvm::Value* gep) {
  auto* op = llvm::cast<llvm::GEPOperator>(gep);
  RV base = f ? Eval(*f, op->getPointerOperand())
              : EvalConstant(llvm::cast<llvm::Constant>(op->getPointerOperand()));
  if (base.elems || base.v.IsUnknown()) return UnknownOf(gep->getType());
  uint64_t address = base.v.Bits();
  for (auto it = llvm::gep_type_begin(op), end = llvm::gep_type_end(op); it != end; ++it) {
    const llvm::Value* index_value = it.getOperand();
    RV index = f ? Eval(*f, index_value) : EvalConstant(llvm::cast<llvm::Constant>(index_value));
    if (index.elems || index.v.IsUnknown()) return UnknownOf(gep->getType());
    if (llvm::StructType* st = it.getStructTypeOrNull()) {
      address += dl_->getStructLayout(st)->getElementOffset(static_cast<unsigned>(index.v.Bits()));
    } else {
      const int64_t i = SignExtend(index.v.Bits(), ScalarBits(index_value->getType()));
      address += static_cast<uint64_t>(i) *
                 dl_->getTypeAllocSize(it.getIndexedType()).getFixedSize();
    }
  }
  return RV::Bits(address);
}

RV Machine::Cast(unsigned opcode, const RV& v, const llvm::Type* from, const llvm::Type* to) {
  using I = llvm::Instruction;
  if (v.elems || from->isVectorTy() || to->isVectorTy()) {
    if (opcode == I::BitCast && from == to) return v;
    return UnknownOf(to);
  }
  if (v.v.IsUnknown()) return UnknownOf(to);
  const uint64_t x = v.v.Bits();
  const unsigned fb = ScalarBits(from), tb = ScalarBits(to);
  switch (opcode) {
    case I::Trunc:
    case I::PtrToInt:
    case I::IntToPtr:
      if (tb == 0) return UnknownOf(to);
      return RV::Bits(x & Mask(tb));
    case I::ZExt:
      return RV::Bits(x & Mask(tb));
    case I::SExt:
      return RV::Bits(static_cast<uint64_t>(SignExtend(x, fb)) & Mask(tb));
    case I::BitCast:
    case I::AddrSpaceCast:
      return v;
    case I::FPTrunc:
    case I::FPExt:
      if (!(IsFloat(from) || IsDouble(from)) || !(IsFloat(to) || IsDouble(to))) return UnknownOf(to);
      return RV::Bits(FromDouble(AsDouble(x, from), to));
    case I::FPToUI:
    case I::FPToSI: {
      if (!(IsFloat(from) || IsDouble(from)) || tb == 0) return UnknownOf(to);
      const double d = AsDouble(x, from);
      if (!std::isfinite(d) || std::fabs(d) > 9.2e18) return UnknownOf(to);
      const uint64_t r = opcode == I::FPToSI ? static_cast<uint64_t>(static_cast<int64_t>(d))
                                             : (d < 0 ? 0 : static_cast<uint64_t>(d));
      return RV::Bits(r & Mask(tb));
    }
    case I::UIToFP:
      if (!(IsFloat(to) || IsDouble(to))) return UnknownOf(to);
      return RV::Bits(FromDouble(static_cast<double>(x), to));
    case I::SIToFP:
      if (!(IsFloat(to) || IsDouble(to))) return UnknownOf(to);
      return RV::Bits(FromDouble(static_cast<double>(SignExtend(x, fb)), to));
    default:
      return UnknownOf(to);
  }
}

RV Machine::Binary(unsigned opcode, const RV& a, const RV& b, const llvm::Type* type) {
  using I = llvm::Instruction;
  if (a.elems || b.elems) {
    if (!a.elems || !b.elems || a.elems->size() != b.elems->size()) return UnknownOf(type);
    auto* vt = llvm::dyn_cast<llvm::VectorType>(type);
    if (!vt) return UnknownOf(type);
    RV r;
    r.elems = std::make_shared<std::vector<RV>>();
    for (size_t i = 0; i < a.elems->size(); ++i)
      r.elems->push_back(Binary(opcode, (*a.elems)[i], (*b.elems)[i], vt->getElementType()));
    return r;
  }
  if (a.v.IsUnknown() || b.v.IsUnknown()) {
    // x & 0 and x * 0 are known whatever x is.
    if ((opcode == I::And || opcode == I::Mul) &&
        ((!a.v.IsUnknown() && a.v.Bits() == 0) || (!b.v.IsUnknown() && b.v.Bits() == 0)))
      return RV::Bits(0);
    return UnknownOf(type);
  }
  const uint64_t x = a.v.Bits(), y = b.v.Bits();
  if (type->isFloatingPointTy()) {
    if (!IsFloat(type) && !IsDouble(type)) return UnknownOf(type);
    const double p = AsDouble(x, type), q = AsDouble(y, type);
    double r = 0;
    switch (opcode) {
      case I::FAdd: r = p + q; break;
      case I::FSub: r = p - q; break;
      case I::FMul: r = p * q; break;
      case I::FDiv: r = p / q; break;
      case I::FRem: r = std::fmod(p, q); break;
      default: return UnknownOf(type);
    }
    return RV::Bits(FromDouble(r, type));
  }
  const unsigned bits = ScalarBits(type);
  if (bits == 0 || bits > 64) return UnknownOf(type);
  const uint64_t m = Mask(bits);
  const int64_t sx = SignExtend(x, bits), sy = SignExtend(y, bits);
  uint64_t r = 0;
  switch (opcode) {
    case I::Add: r = x + y; break;
    case I::Sub: r = x - y; break;
    case I::Mul: r = x * y; break;
    case I::UDiv: if (y == 0) return UnknownOf(type); r = x / y; break;
    case I::URem: if (y == 0) return UnknownOf(type); r = x % y; break;
    case I::SDiv:
      if (sy == 0 || (sy == -1 && sx == INT64_MIN)) return UnknownOf(type);
      r = static_cast<uint64_t>(sx / sy);
      break;
    case I::SRem:
      if (sy == 0 || (sy == -1 && sx == INT64_MIN)) return UnknownOf(type);
      r = static_cast<uint64_t>(sx % sy);
      break;
    case I::Shl: if (y >= bits) return UnknownOf(type); r = x << y; break;
    case I::LShr: if (y >= bits) return UnknownOf(type); r = x >> y; break;
    case I::AShr: if (y >= bits) return UnknownOf(type); r = static_cast<uint64_t>(sx >> y); break;
    case I::And: r = x & y; break;
    case I::Or: r = x | y; break;
    case I::Xor: r = x ^ y; break;
    default: return UnknownOf(type);
  }
  return RV::Bits(r & m);
}

RV Machine::Compare(unsigned predicate, const RV& a, const RV& b, const llvm::Type* type) {
  using P = llvm::CmpInst::Predicate;
  if (a.elems || b.elems || a.v.IsUnknown() || b.v.IsUnknown()) return RV();
  const uint64_t x = a.v.Bits(), y = b.v.Bits();
  if (type->isFloatingPointTy()) {
    if (!IsFloat(type) && !IsDouble(type)) return RV();
    const double p = AsDouble(x, type), q = AsDouble(y, type);
    const bool unordered = std::isnan(p) || std::isnan(q);
    bool r = false;
    switch (predicate) {
      case P::FCMP_FALSE: r = false; break;
      case P::FCMP_TRUE: r = true; break;
      case P::FCMP_OEQ: r = !unordered && p == q; break;
      case P::FCMP_OGT: r = !unordered && p > q; break;
      case P::FCMP_OGE: r = !unordered && p >= q; break;
      case P::FCMP_OLT: r = !unordered && p < q; break;
      case P::FCMP_OLE: r = !unordered && p <= q; break;
      case P::FCMP_ONE: r = !unordered && p != q; break;
      case P::FCMP_ORD: r = !unordered; break;
      case P::FCMP_UNO: r = unordered; break;
      case P::FCMP_UEQ: r = unordered || p == q; break;
      case P::FCMP_UGT: r = unordered || p > q; break;
      case P::FCMP_UGE: r = unordered || p >= q; break;
      case P::FCMP_ULT: r = unordered || p < q; break;
      case P::FCMP_ULE: r = unordered || p <= q; break;
      case P::FCMP_UNE: r = unordered || p != q; break;
      default: return RV();
    }
    return RV::Bits(r);
  }
  const unsigned bits = ScalarBits(type);
  if (bits == 0) return RV();
  const int64_t sx = SignExtend(x, bits), sy = SignExtend(y, bits);
  bool r = false;
  switch (predicate) {
    case P::ICMP_EQ: r = x == y; break;
    case P::ICMP_NE: r = x != y; break;
    case P::ICMP_UGT: r = x > y; break;
    case P::ICMP_UGE: r = x >= y; break;
    case P::ICMP_ULT: r = x < y; break;
    case P::ICMP_ULE: r = x <= y; break;
    case P::ICMP_SGT: r = sx > sy; break;
    case P::ICMP_SGE: r = sx >= sy; break;
    case P::ICMP_SLT: r = sx < sy; break;
    case P::ICMP_SLE: r = sx <= sy; break;
    default: return RV();
  }
  return RV::Bits(r);
}

// ------------------------------------------------------------------ memory

RV Machine::LoadFrom(MemObject& o, uint64_t offset, const llvm::Type* type) {
  if (auto* st = llvm::dyn_cast<llvm::StructType>(type)) {
    RV r;
    r.elems = std::make_shared<std::vector<RV>>();
    const llvm::StructLayout* sl = dl_->getStructLayout(const_cast<llvm::StructType*>(st));
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      r.elems->push_back(LoadFrom(o, offset + sl->getElementOffset(i), st->getElementType(i)));
    return r;
  }
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(type)) {
    RV r;
    r.elems = std::make_shared<std::vector<RV>>();
    const uint64_t step = dl_->getTypeAllocSize(at->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      r.elems->push_back(LoadFrom(o, offset + i * step, at->getElementType()));
    return r;
  }
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    RV r;
    r.elems = std::make_shared<std::vector<RV>>();
    const uint64_t step = dl_->getTypeAllocSize(vt->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < vt->getNumElements(); ++i)
      r.elems->push_back(LoadFrom(o, offset + i * step, vt->getElementType()));
    return r;
  }
  const uint64_t size = dl_->getTypeStoreSize(const_cast<llvm::Type*>(type)).getFixedSize();
  if (size > 8 || offset + size > o.size) return RV();
  uint64_t bits = 0;
  for (uint64_t i = 0; i < size; ++i) {
    if (!o.known[offset + i]) return RV();
    bits |= static_cast<uint64_t>(o.data[offset + i]) << (8 * i);
  }
  if (const unsigned b = ScalarBits(type)) bits &= Mask(b);
  return RV::Bits(bits);
}

void Machine::StoreTo(MemObject& o, uint64_t offset, const llvm::Type* type, const RV& value) {
  if (auto* st = llvm::dyn_cast<llvm::StructType>(type)) {
    const llvm::StructLayout* sl = dl_->getStructLayout(const_cast<llvm::StructType*>(st));
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      StoreTo(o, offset + sl->getElementOffset(i), st->getElementType(i),
              value.elems && i < value.elems->size() ? (*value.elems)[i] : RV());
    return;
  }
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(type)) {
    const uint64_t step = dl_->getTypeAllocSize(at->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      StoreTo(o, offset + i * step, at->getElementType(),
              value.elems && i < value.elems->size() ? (*value.elems)[i] : RV());
    return;
  }
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    const uint64_t step = dl_->getTypeAllocSize(vt->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < vt->getNumElements(); ++i)
      StoreTo(o, offset + i * step, vt->getElementType(),
              value.elems && i < value.elems->size() ? (*value.elems)[i] : RV());
    return;
  }
  const uint64_t size = dl_->getTypeStoreSize(const_cast<llvm::Type*>(type)).getFixedSize();
  if (offset + size > o.size) return;
  o.dirty = true;
  const bool known = !value.elems && !value.v.IsUnknown() && size <= 8;
  const uint64_t bits = known ? value.v.Bits() : 0;
  for (uint64_t i = 0; i < size; ++i) {
    o.data[offset + i] = known ? static_cast<uint8_t>(bits >> (8 * i)) : 0;
    o.known[offset + i] = known ? 1 : 0;
  }
}

RV Machine::Load(Thread& t, const llvm::Instruction& at, const llvm::Type* type, Value address,
                 bool atomic) {
  if (address.IsUnknown()) {
    // An atomic at an unknown place still synchronizes with something: let
    // all of them share one location, so ordering is not lost (no false race).
    if (atomic) sync_->AtomicLoad(t.id, kUnknownAtomic);
    return UnknownOf(type);
  }
  const uint64_t size = dl_->getTypeStoreSize(const_cast<llvm::Type*>(type)).getFixedSize();
  MemObject* o = memory_.Find(address.Bits(), size);
  if (!o) return UnknownOf(type);
  if (atomic) {
    sync_->AtomicLoad(t.id, address.Bits());
  } else {
    Touch(t, at, address.Bits(), size, false, *o);
  }
  return LoadFrom(*o, address.Bits() - o->base, type);
}

void Machine::Store(Thread& t, const llvm::Instruction& at, const llvm::Type* type, Value address,
                    const RV& value, bool atomic) {
  if (address.IsUnknown()) {  // dropped, as the paper does
    if (atomic) sync_->AtomicStore(t.id, kUnknownAtomic);
    return;
  }
  const uint64_t size = dl_->getTypeStoreSize(const_cast<llvm::Type*>(type)).getFixedSize();
  MemObject* o = memory_.Find(address.Bits(), size);
  if (!o) return;
  if (atomic) {
    sync_->AtomicStore(t.id, address.Bits());
  } else {
    Touch(t, at, address.Bits(), size, true, *o);
  }
  StoreTo(*o, address.Bits() - o->base, type, value);
}

void Machine::Touch(Thread& t, const llvm::Instruction& at, uint64_t address, uint64_t size,
                    bool is_write, const MemObject& o) {
  preempt_ = true;
  // Before the second thread exists every access happens before everything
  // any later thread does, so there is nothing to record.
  if (!multi_threaded_ || size == 0) return;
  const uint32_t index = UserSiteIndex(t, at);
  if (index >= run_site_id_.size()) run_site_id_.resize(sites_.size(), -1);
  if (run_site_id_[index] < 0) run_site_id_[index] = sync_->InternSite(sites_[index]);
  sync_->Access(t.id, address, size, is_write, static_cast<uint32_t>(run_site_id_[index]), o.name);
}

Value Machine::ReadWord(uint64_t address, unsigned bytes) {
  MemObject* o = memory_.Find(address, bytes);
  if (!o) return Value::Unknown();
  uint64_t bits = 0;
  for (unsigned i = 0; i < bytes; ++i) {
    if (!o->known[address - o->base + i]) return Value::Unknown();
    bits |= static_cast<uint64_t>(o->data[address - o->base + i]) << (8 * i);
  }
  return Value::Concrete(bits);
}

void Machine::WriteWord(uint64_t address, unsigned bytes, uint64_t value) {
  MemObject* o = memory_.Find(address, bytes);
  if (!o) return;
  o->dirty = true;
  for (unsigned i = 0; i < bytes; ++i) {
    o->data[address - o->base + i] = static_cast<uint8_t>(value >> (8 * i));
    o->known[address - o->base + i] = 1;
  }
}

void Machine::CopyBytes(Thread& t, const llvm::Instruction& at, Value dst, Value src, Value size) {
  if (dst.IsUnknown() || size.IsUnknown()) return;
  const uint64_t n = size.Bits();
  if (n == 0 || n > (64u << 20)) return;
  MemObject* d = memory_.Find(dst.Bits(), n);
  if (!d) return;
  std::vector<uint8_t> data(n, 0), known(n, 0);
  if (!src.IsUnknown()) {
    if (MemObject* s = memory_.Find(src.Bits(), n)) {
      Touch(t, at, src.Bits(), n, false, *s);
      std::memcpy(data.data(), s->data.data() + (src.Bits() - s->base), n);
      std::memcpy(known.data(), s->known.data() + (src.Bits() - s->base), n);
    }
  }
  d = memory_.Find(dst.Bits(), n);  // Touch may not move objects, but stay safe
  if (!d) return;
  Touch(t, at, dst.Bits(), n, true, *d);
  d->dirty = true;
  std::memcpy(d->data.data() + (dst.Bits() - d->base), data.data(), n);
  std::memcpy(d->known.data() + (dst.Bits() - d->base), known.data(), n);
}

void Machine::SetBytes(Thread& t, const llvm::Instruction& at, Value dst, Value byte, Value size) {
  if (dst.IsUnknown() || size.IsUnknown()) return;
  const uint64_t n = size.Bits();
  if (n == 0 || n > (64u << 20)) return;
  MemObject* d = memory_.Find(dst.Bits(), n);
  if (!d) return;
  Touch(t, at, dst.Bits(), n, true, *d);
  d->dirty = true;
  const uint64_t off = dst.Bits() - d->base;
  std::memset(d->data.data() + off, byte.IsUnknown() ? 0 : static_cast<int>(byte.Bits() & 0xff), n);
  std::memset(d->known.data() + off, byte.IsUnknown() ? 0 : 1, n);
}

// ------------------------------------------------------------ control flow

void Machine::JumpTo(Frame& f, const llvm::BasicBlock* target) {
  // All phis of the target read the values of the edge at once.
  std::vector<std::pair<const llvm::PHINode*, RV>> incoming;
  for (const llvm::PHINode& phi : target->phis()) {
    const int index = phi.getBasicBlockIndex(f.bb);
    incoming.emplace_back(&phi, index < 0 ? UnknownOf(phi.getType())
                                          : Eval(f, phi.getIncomingValue(index)));
  }
  for (auto& [phi, value] : incoming) Reg(f, phi) = std::move(value);
  f.prev = f.bb;
  f.bb = target;
  covered_.insert(target);
  f.pc = target->getFirstNonPHI();
}

void Machine::Advance(Frame& f) { f.pc = f.pc->getNextNode(); }

bool Machine::Chance() { return (rng_() & 1) != 0; }
uint64_t Machine::Pick(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

void Machine::Execute(Thread& t, Frame& f, const llvm::Instruction& inst) {
  using I = llvm::Instruction;
  const unsigned op = inst.getOpcode();
  switch (op) {
    case I::Alloca: {
      auto& a = llvm::cast<llvm::AllocaInst>(inst);
      uint64_t count = 1;
      RV n = Eval(f, a.getArraySize());
      if (!n.elems && !n.v.IsUnknown()) count = std::max<uint64_t>(n.v.Bits(), 1);
      if (count > (1u << 20)) count = 1;
      const uint64_t size = dl_->getTypeAllocSize(a.getAllocatedType()).getFixedSize() * count;
      std::string name;
      const llvm::DIType* type = nullptr;
      auto it = local_names_.find(&a);
      if (it != local_names_.end()) {
        name = it->second.first;
        type = it->second.second;
      }
      MemObject& o = memory_.Allocate(std::max<uint64_t>(size, 1), MemObject::Kind::kStack, false,
                                      std::move(name));
      o.type = type;
      f.allocas.push_back(o.base);
      Reg(f, &inst) = RV::Bits(o.base);
      Advance(f);
      return;
    }
    case I::Load: {
      auto& l = llvm::cast<llvm::LoadInst>(inst);
      RV address = Eval(f, l.getPointerOperand());
      Reg(f, &inst) = Load(t, inst, l.getType(), address.elems ? Value::Unknown() : address.v,
                           l.isAtomic());
      if (l.isAtomic()) preempt_ = true;
      Advance(f);
      return;
    }
    case I::Store: {
      auto& s = llvm::cast<llvm::StoreInst>(inst);
      RV address = Eval(f, s.getPointerOperand());
      Store(t, inst, s.getValueOperand()->getType(), address.elems ? Value::Unknown() : address.v,
            Eval(f, s.getValueOperand()), s.isAtomic());
      if (s.isAtomic()) preempt_ = true;
      Advance(f);
      return;
    }
    case I::AtomicRMW: {
      auto& a = llvm::cast<llvm::AtomicRMWInst>(inst);
      RV address = Eval(f, a.getPointerOperand());
      RV operand = Eval(f, a.getValOperand());
      llvm::Type* type = a.getValOperand()->getType();
      Value addr = address.elems ? Value::Unknown() : address.v;
      RV old = Load(t, inst, type, addr, true);
      RV now;
      using B = llvm::AtomicRMWInst::BinOp;
      switch (a.getOperation()) {
        case B::Xchg: now = operand; break;
        case B::Add: now = Binary(I::Add, old, operand, type); break;
        case B::Sub: now = Binary(I::Sub, old, operand, type); break;
        case B::And: now = Binary(I::And, old, operand, type); break;
        case B::Or: now = Binary(I::Or, old, operand, type); break;
        case B::Xor: now = Binary(I::Xor, old, operand, type); break;
        case B::Nand: {
          RV x = Binary(I::And, old, operand, type);
          now = Binary(I::Xor, x, RV::Bits(Mask(ScalarBits(type))), type);
          break;
        }
        case B::Max: case B::Min: case B::UMax: case B::UMin: {
          const unsigned p = a.getOperation() == B::Max ? llvm::CmpInst::ICMP_SGT
                             : a.getOperation() == B::Min ? llvm::CmpInst::ICMP_SLT
                             : a.getOperation() == B::UMax ? llvm::CmpInst::ICMP_UGT
                                                           : llvm::CmpInst::ICMP_ULT;
          RV c = Compare(p, old, operand, type);
          now = c.v.IsUnknown() ? RV() : (c.v.Bits() ? old : operand);
          break;
        }
        case B::FAdd: now = Binary(I::FAdd, old, operand, type); break;
        case B::FSub: now = Binary(I::FSub, old, operand, type); break;
        default: now = RV(); break;
      }
      Store(t, inst, type, addr, now, true);
      Reg(f, &inst) = old;
      preempt_ = true;
      Advance(f);
      return;
    }
    case I::AtomicCmpXchg: {
      auto& c = llvm::cast<llvm::AtomicCmpXchgInst>(inst);
      RV address = Eval(f, c.getPointerOperand());
      Value addr = address.elems ? Value::Unknown() : address.v;
      llvm::Type* type = c.getNewValOperand()->getType();
      RV old = Load(t, inst, type, addr, true);
      RV expected = Eval(f, c.getCompareOperand());
      RV eq = Compare(llvm::CmpInst::ICMP_EQ, old, expected, type);
      bool success;
      if (eq.v.IsUnknown()) success = Chance();
      else success = eq.v.Bits() != 0;
      if (success) Store(t, inst, type, addr, Eval(f, c.getNewValOperand()), true);
      RV r;
      r.elems = std::make_shared<std::vector<RV>>();
      r.elems->push_back(old);
      r.elems->push_back(RV::Bits(success ? 1 : 0));
      Reg(f, &inst) = r;
      preempt_ = true;
      Advance(f);
      return;
    }
    case I::Fence:
      preempt_ = true;
      Advance(f);
      return;
    case I::GetElementPtr:
      Reg(f, &inst) = Gep(&f, &inst);
      Advance(f);
      return;
    case I::ICmp:
    case I::FCmp: {
      auto& c = llvm::cast<llvm::CmpInst>(inst);
      RV a = Eval(f, c.getOperand(0)), b = Eval(f, c.getOperand(1));
      if (a.elems || b.elems) {
        Reg(f, &inst) = UnknownOf(inst.getType());
      } else {
        Reg(f, &inst) = Compare(c.getPredicate(), a, b, c.getOperand(0)->getType());
      }
      Advance(f);
      return;
    }
    case I::Select: {
      auto& s = llvm::cast<llvm::SelectInst>(inst);
      RV c = Eval(f, s.getCondition());
      if (c.elems) {
        Reg(f, &inst) = UnknownOf(inst.getType());
      } else if (c.v.IsUnknown()) {
        RV a = Eval(f, s.getTrueValue()), b = Eval(f, s.getFalseValue());
        Reg(f, &inst) = (!a.elems && !b.elems && a.v == b.v) ? a : UnknownOf(inst.getType());
      } else {
        Reg(f, &inst) = Eval(f, c.v.Bits() ? s.getTrueValue() : s.getFalseValue());
      }
      Advance(f);
      return;
    }
    case I::FNeg: {
      RV a = Eval(f, inst.getOperand(0));
      const llvm::Type* type = inst.getType();
      if (a.elems || a.v.IsUnknown() || !(IsFloat(type) || IsDouble(type))) {
        Reg(f, &inst) = UnknownOf(type);
      } else {
        Reg(f, &inst) = RV::Bits(FromDouble(-AsDouble(a.v.Bits(), type), type));
      }
      Advance(f);
      return;
    }
    case I::ExtractValue: {
      auto& e = llvm::cast<llvm::ExtractValueInst>(inst);
      RV a = Eval(f, e.getAggregateOperand());
      for (unsigned index : e.indices()) {
        if (!a.elems || index >= a.elems->size()) {
          a = UnknownOf(inst.getType());
          break;
        }
        RV next = (*a.elems)[index];
        a = next;
      }
      Reg(f, &inst) = a;
      Advance(f);
      return;
    }
    case I::InsertValue: {
      auto& e = llvm::cast<llvm::InsertValueInst>(inst);
      RV a = Eval(f, e.getAggregateOperand());
      if (!a.elems) a = UnknownOf(inst.getType());
      RV value = Eval(f, e.getInsertedValueOperand());
      // Copy the path down to the inserted element (values are immutable).
      std::function<RV(const RV&, unsigned)> insert = [&](const RV& agg, unsigned depth) -> RV {
        RV copy = agg;
        copy.elems = std::make_shared<std::vector<RV>>(agg.elems ? *agg.elems : std::vector<RV>());
        const unsigned index = e.getIndices()[depth];
        if (index >= copy.elems->size()) return copy;
        if (depth + 1 == e.getNumIndices()) {
          (*copy.elems)[index] = value;
        } else {
          (*copy.elems)[index] = insert((*copy.elems)[index], depth + 1);
        }
        return copy;
      };
      Reg(f, &inst) = insert(a, 0);
      Advance(f);
      return;
    }
    case I::ExtractElement: {
      auto& e = llvm::cast<llvm::ExtractElementInst>(inst);
      RV v = Eval(f, e.getVectorOperand()), i = Eval(f, e.getIndexOperand());
      if (v.elems && !i.elems && !i.v.IsUnknown() && i.v.Bits() < v.elems->size()) {
        RV r = (*v.elems)[i.v.Bits()];
        Reg(f, &inst) = r;
      } else {
        Reg(f, &inst) = UnknownOf(inst.getType());
      }
      Advance(f);
      return;
    }
    case I::InsertElement: {
      auto& e = llvm::cast<llvm::InsertElementInst>(inst);
      RV v = Eval(f, e.getOperand(0)), x = Eval(f, e.getOperand(1)), i = Eval(f, e.getOperand(2));
      if (v.elems && !i.elems && !i.v.IsUnknown() && i.v.Bits() < v.elems->size()) {
        RV copy = v;
        copy.elems = std::make_shared<std::vector<RV>>(*v.elems);
        (*copy.elems)[i.v.Bits()] = x;
        Reg(f, &inst) = copy;
      } else {
        Reg(f, &inst) = UnknownOf(inst.getType());
      }
      Advance(f);
      return;
    }
    case I::Br: {
      auto& b = llvm::cast<llvm::BranchInst>(inst);
      if (b.isUnconditional()) {
        JumpTo(f, b.getSuccessor(0));
        return;
      }
      RV c = Eval(f, b.getCondition());
      bool taken;
      if (c.elems || c.v.IsUnknown()) taken = Chance();  // paper 001: random side
      else taken = c.v.Bits() != 0;
      JumpTo(f, b.getSuccessor(taken ? 0 : 1));
      return;
    }
    case I::Switch: {
      auto& s = llvm::cast<llvm::SwitchInst>(inst);
      RV c = Eval(f, s.getCondition());
      if (c.elems || c.v.IsUnknown()) {
        const uint64_t n = s.getNumSuccessors();
        JumpTo(f, s.getSuccessor(static_cast<unsigned>(Pick(n))));
        return;
      }
      for (auto& cs : s.cases()) {
        if (cs.getCaseValue()->getZExtValue() == c.v.Bits()) {
          JumpTo(f, cs.getCaseSuccessor());
          return;
        }
      }
      JumpTo(f, s.getDefaultDest());
      return;
    }
    case I::IndirectBr: {
      auto& b = llvm::cast<llvm::IndirectBrInst>(inst);
      Note(inst, "indirect branch: a random destination was taken");
      JumpTo(f, b.getDestination(static_cast<unsigned>(Pick(b.getNumDestinations()))));
      return;
    }
    case I::Ret: {
      auto& r = llvm::cast<llvm::ReturnInst>(inst);
      RV value = r.getReturnValue() ? Eval(f, r.getReturnValue()) : RV();
      Return(t, std::move(value));
      return;
    }
    case I::Unreachable:
    case I::Resume:
      // A noreturn call without a model, or an exception path: this thread
      // stops here (exceptions are treated as never thrown).
      EndThread(t);
      return;
    case I::LandingPad:
      Reg(f, &inst) = UnknownOf(inst.getType());
      Advance(f);
      return;
    case I::Call:
    case I::Invoke: {
      auto& call = llvm::cast<llvm::CallBase>(inst);
      switch (Call(t, f, call)) {
        case CallOutcome::kDone:
        case CallOutcome::kPushed:
        case CallOutcome::kBlocked:
          return;
        case CallOutcome::kEndThread:
          EndThread(t);
          return;
        case CallOutcome::kEndRun:
          run_over_ = true;
          return;
      }
      return;
    }
    case I::PHI:
      Advance(f);  // assigned on the edge by JumpTo
      return;
    case I::Freeze: {
      Reg(f, &inst) = Eval(f, inst.getOperand(0));
      Advance(f);
      return;
    }
    default:
      break;
  }
  if (inst.isBinaryOp()) {
    Reg(f, &inst) = Binary(op, Eval(f, inst.getOperand(0)), Eval(f, inst.getOperand(1)), inst.getType());
    Advance(f);
    return;
  }
  if (inst.isCast()) {
    Reg(f, &inst) = Cast(op, Eval(f, inst.getOperand(0)), inst.getOperand(0)->getType(), inst.getType());
    Advance(f);
    return;
  }
  Note(inst, std::string("unsupported instruction '") + inst.getOpcodeName() + "': its result is unknown");
  if (!inst.getType()->isVoidTy()) Reg(f, &inst) = UnknownOf(inst.getType());
  if (inst.isTerminator()) {
    EndThread(t);
    return;
  }
  Advance(f);
}

// -------------------------------------------------------------- scheduling

bool Machine::Runnable(Thread& t) {
  switch (t.state) {
    case Thread::State::kRunnable:
      return true;
    case Thread::State::kDone:
      return false;
    case Thread::State::kMutex:
      return !sync_->Owner(t.wait_on).has_value();
    case Thread::State::kRwRead: {
      auto it = rwlocks_.find(t.wait_on);
      return it == rwlocks_.end() || !it->second.writer;
    }
    case Thread::State::kRwWrite: {
      auto it = rwlocks_.find(t.wait_on);
      return it == rwlocks_.end() || (!it->second.writer && it->second.readers.empty());
    }
    case Thread::State::kJoin:
      return t.wait_on >= threads_.size() || threads_[t.wait_on]->state == Thread::State::kDone;
    case Thread::State::kJoinAll:
      for (auto& other : threads_)
        if (other.get() != &t && other->state != Thread::State::kDone) return false;
      return true;
    case Thread::State::kCond:
      return t.woken;
    case Thread::State::kSem: {
      Value count = ReadWord(t.wait_on, 4);
      return count.IsUnknown() || count.Bits() != 0;
    }
    case Thread::State::kOnce: {
      auto it = once_state_.find(t.wait_on);
      auto jt = guard_state_.find(t.wait_on);
      const bool once_busy = it != once_state_.end() && it->second == 1;
      const bool guard_busy = jt != guard_state_.end() && jt->second == 1;
      return !once_busy && !guard_busy;
    }
  }
  return false;
}

uint64_t Machine::Run(const std::string& entry_name,
                      const std::function<std::vector<Task>(Machine&)>& make_tasks, uint64_t seed,
                      uint64_t max_steps) {
  entry_ = entry_name;
  ResetRun(seed);
  std::vector<Task> tasks = make_tasks(*this);
  max_steps_ = max_steps;
  auto main = std::make_unique<Thread>();
  main->id = 0;
  main->description = "main thread";
  main->tasks = std::move(tasks);
  main->ends_run = true;
  std::reverse(main->tasks.begin(), main->tasks.end());  // popped from the back
  threads_.push_back(std::move(main));
  StartTask(*threads_[0]);
  current_ = 0;
  std::vector<ThreadId> runnable;
  while (!run_over_ && steps_ < max_steps_) {
    Thread* t = threads_[current_].get();
    if (preempt_ || !Runnable(*t)) {
      preempt_ = false;
      runnable.clear();
      for (auto& other : threads_)
        if (Runnable(*other)) runnable.push_back(other->id);
      if (runnable.empty()) {
        CheckAllBlocked();
        break;
      }
      current_ = runnable[Pick(runnable.size())];
      t = threads_[current_].get();
    }
    t->state = Thread::State::kRunnable;
    if (t->frames.empty()) {
      StartTask(*t);
      if (t->frames.empty()) continue;
    }
    Frame& f = t->frames.back();
    ++steps_;
    Execute(*t, f, *f.pc);
  }
  ReportRaces();
  ReportLockOrder();
  return steps_;
}

void Machine::ResetRun(uint64_t seed) {
  memory_.ResetTo(global_images_);
  sync_ = std::make_unique<SyncModel>();
  threads_.clear();
  rng_.seed(seed);
  steps_ = 0;
  run_over_ = false;
  preempt_ = false;
  multi_threaded_ = false;
  current_ = 0;
  held_site_.clear();
  held_function_.clear();
  rwlocks_.clear();
  rw_site_.clear();
  cond_waiters_.clear();
  once_state_.clear();
  guard_state_.clear();
  tls_address_.clear();
  run_site_id_.assign(sites_.size(), -1);
  covered_.clear();
}

void Machine::StartTask(Thread& t) {
  while (t.frames.empty() && !t.tasks.empty() && !run_over_) {
    Task task = std::move(t.tasks.back());
    t.tasks.pop_back();
    switch (task.kind) {
      case Task::Kind::kCall:
        PushFrame(t, task.fn, std::move(task.args));
        break;
      case Task::Kind::kVirtual: {
        if (task.args.empty() || task.args[0].v.IsUnknown()) break;
        Value vptr = ReadWord(task.args[0].v.Bits(), 8);
        if (vptr.IsUnknown()) break;
        Value slot = ReadWord(vptr.Bits() + 8 * task.slot, 8);
        const llvm::Function* fn = slot.IsUnknown() ? nullptr : FunctionAt(slot.Bits());
        if (fn && !fn->isDeclaration()) PushFrame(t, fn, std::move(task.args));
        break;
      }
      case Task::Kind::kSpawnPair: {
        SourceSite here;
        NewThread(task.fn, std::move(task.args), here, t.id);
        NewThread(task.second, std::move(task.second_args), here, t.id);
        break;
      }
      case Task::Kind::kJoinAll: {
        // Block until every other thread is done, then learn what they did.
        bool all_done = true;
        for (auto& other : threads_)
          if (other.get() != &t && other->state != Thread::State::kDone) all_done = false;
        if (!all_done) {
          t.tasks.push_back(std::move(task));
          t.state = Thread::State::kJoinAll;
          preempt_ = true;
          return;
        }
        for (auto& other : threads_)
          if (other.get() != &t) sync_->Join(t.id, other->id);
        break;
      }
    }
  }
  if (t.frames.empty() && t.tasks.empty() && t.state != Thread::State::kJoinAll) EndThread(t);
}

Thread& Machine::NewThread(const llvm::Function* fn, std::vector<RV> args,
                           const SourceSite& created_at, ThreadId parent) {
  const ThreadId id = sync_->Fork(parent);
  multi_threaded_ = true;
  auto thread = std::make_unique<Thread>();
  thread->id = id;
  thread->description = "thread T" + std::to_string(id);
  if (!created_at.file.empty()) {
    thread->description += " started at " + created_at.file + ":" + std::to_string(created_at.line);
  } else {
    // An in-the-middle start: say which function the invented thread runs.
    auto d = demangled_.find(fn);
    if (d == demangled_.end()) d = demangled_.emplace(fn, llvm::demangle(fn->getName().str())).first;
    thread->description += " running " + d->second;
  }
  Task task;
  task.fn = fn;
  task.args = std::move(args);
  thread->tasks.push_back(std::move(task));
  threads_.push_back(std::move(thread));
  preempt_ = true;
  return *threads_.back();
}

void Machine::EndThread(Thread& t) {
  // Release what the frames owned; the thread's locks stay held (as in a
  // real program whose thread died holding them).
  while (!t.frames.empty()) {
    for (uint64_t a : t.frames.back().allocas) memory_.Free(a);
    t.frames.pop_back();
  }
  t.tasks.clear();
  t.state = Thread::State::kDone;
  preempt_ = true;
  if (t.ends_run) run_over_ = true;
}

void Machine::Return(Thread& t, RV result) {
  Frame& done = t.frames.back();
  std::function<void(RV&)> hook = std::move(done.on_return);
  for (uint64_t a : done.allocas) {
    if (const MemObject* o = memory_.FindAny(a)) {
      const uint64_t size = o->size;
      memory_.Free(a);
      if (multi_threaded_) sync_->Forget(a, size);
    }
  }
  t.frames.pop_back();
  if (hook) hook(result);
  if (t.frames.empty()) {
    StartTask(t);
    return;
  }
  FinishCall(t, t.frames.back(), std::move(result));
}

void Machine::FinishCall(Thread& t, Frame& caller, RV result) {
  (void)t;
  const llvm::Instruction* call = caller.pc;
  if (!call->getType()->isVoidTy()) Reg(caller, call) = std::move(result);
  if (auto* invoke = llvm::dyn_cast<llvm::InvokeInst>(call)) {
    JumpTo(caller, invoke->getNormalDest());
  } else {
    Advance(caller);
  }
}

void Machine::PushFrame(Thread& t, const llvm::Function* fn, std::vector<RV> args) {
  Frame f;
  f.fn = fn;
  f.bb = &fn->getEntryBlock();
  covered_.insert(f.bb);
  f.pc = &*f.bb->begin();
  f.system = IsSystemFunction(fn);
  f.regs.resize(slot_count_[fn]);
  unsigned i = 0;
  for (const llvm::Argument& a : fn->args()) {
    Reg(f, &a) = i < args.size() ? std::move(args[i]) : UnknownOf(a.getType());
    ++i;
  }
  t.frames.push_back(std::move(f));
  t.state = Thread::State::kRunnable;
}

void Machine::InitRecursiveMutexes(uint64_t object, const llvm::Type* type, int depth) {
  auto* st = llvm::dyn_cast<llvm::StructType>(type);
  if (depth > 8) return;
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(type)) {
    const uint64_t step = dl_->getTypeAllocSize(at->getElementType()).getFixedSize();
    for (uint64_t i = 0; i < at->getNumElements() && i < 64; ++i)
      InitRecursiveMutexes(object + i * step, at->getElementType(), depth + 1);
    return;
  }
  if (!st || st->isOpaque()) return;
  if (st->hasName() && st->getName().startswith("class.std::recursive_")) {
    WriteWord(object + 16, 4, 1);  // PTHREAD_MUTEX_RECURSIVE_NP in pthread_mutex_t's kind
    return;
  }
  const llvm::StructLayout* sl = dl_->getStructLayout(const_cast<llvm::StructType*>(st));
  for (unsigned i = 0; i < st->getNumElements(); ++i)
    InitRecursiveMutexes(object + sl->getElementOffset(i), st->getElementType(i), depth + 1);
}

uint64_t Machine::AllocateObject(uint64_t size, const std::string& name, const llvm::DIType* type) {
  MemObject& o = memory_.Allocate(std::max<uint64_t>(size, 1), MemObject::Kind::kHeap, true, name);
  o.type = type;
  return o.base;
}

}  // namespace snag::interp::ir
