// Calls: to functions with a body (a new frame), to LLVM intrinsics, and to
// external functions, which are either modelled by name (models.cpp) or
// return unknown without writing through their pointer arguments.
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "interp/ir/machine.h"

namespace snag::interp::ir {

Machine::CallOutcome Machine::Call(Thread& t, Frame& f, const llvm::CallBase& call) {
  const llvm::Value* target = call.getCalledOperand();
  if (llvm::isa<llvm::InlineAsm>(target)) {
    Note(call, "inline assembly is not interpreted: its result is unknown");
    FinishCall(t, f, UnknownOf(call.getType()));
    return CallOutcome::kDone;
  }
  const llvm::Function* callee = llvm::dyn_cast<llvm::Function>(target->stripPointerCasts());
  if (!callee) {
    RV address = Eval(f, target);
    if (!address.elems && !address.v.IsUnknown()) callee = FunctionAt(address.v.Bits());
  }
  if (!callee) {
    // A call through an unknown function pointer: nothing is known of it.
    FinishCall(t, f, UnknownOf(call.getType()));
    return CallOutcome::kDone;
  }
  std::vector<RV> args;
  args.reserve(call.arg_size());
  for (const llvm::Use& a : call.args()) args.push_back(Eval(f, a.get()));

  if (callee->isIntrinsic()) {
    RV result = UnknownOf(call.getType());
    CallOutcome outcome = CallIntrinsic(t, f, call, callee, args, result);
    if (outcome == CallOutcome::kDone) FinishCall(t, f, std::move(result));
    return outcome;
  }
  if (callee->isDeclaration()) {
    RV result = UnknownOf(call.getType());
    CallOutcome outcome = CallModel(t, f, call, callee, args, result);
    if (outcome == CallOutcome::kDone) FinishCall(t, t.frames.back(), std::move(result));
    return outcome;
  }
  if (t.frames.size() >= options_.max_frames) {
    // Deeper recursion than the budget: the call's effect is unknown.
    FinishCall(t, f, UnknownOf(call.getType()));
    return CallOutcome::kDone;
  }
  PushFrame(t, callee, std::move(args));  // invalidates `f`
  return CallOutcome::kPushed;
}

namespace {

uint64_t MaskBits(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1); }

}  // namespace

Machine::CallOutcome Machine::CallIntrinsic(Thread& t, Frame& f, const llvm::CallBase& call,
                                            const llvm::Function* callee, std::vector<RV>& args,
                                            RV& result) {
  (void)f;
  namespace Ix = llvm::Intrinsic;
  const llvm::Intrinsic::ID id = callee->getIntrinsicID();
  auto word = [&](size_t i) { return i < args.size() && !args[i].elems ? args[i].v : Value::Unknown(); };
  switch (id) {
    case Ix::dbg_declare:
    case Ix::dbg_value:
    case Ix::dbg_label:
    case Ix::lifetime_start:
    case Ix::lifetime_end:
    case Ix::assume:
    case Ix::experimental_noalias_scope_decl:
    case Ix::invariant_start:
    case Ix::invariant_end:
    case Ix::donothing:
    case Ix::var_annotation:
    case Ix::sideeffect:
    case Ix::vastart:
    case Ix::vaend:
    case Ix::vacopy:
    case Ix::stackrestore:
    case Ix::prefetch:
      return CallOutcome::kDone;
    case Ix::memcpy:
    case Ix::memmove:
      CopyBytes(t, call, word(0), word(1), word(2));
      return CallOutcome::kDone;
    case Ix::memset:
      SetBytes(t, call, word(0), word(1), word(2));
      return CallOutcome::kDone;
    case Ix::expect:
    case Ix::expect_with_probability:
      result = args[0];
      return CallOutcome::kDone;
    case Ix::trap:
    case Ix::debugtrap:
      return CallOutcome::kEndThread;
    case Ix::uadd_with_overflow:
    case Ix::sadd_with_overflow:
    case Ix::usub_with_overflow:
    case Ix::ssub_with_overflow:
    case Ix::umul_with_overflow:
    case Ix::smul_with_overflow: {
      const unsigned bits = call.getArgOperand(0)->getType()->getIntegerBitWidth();
      Value a = word(0), b = word(1);
      result = UnknownOf(call.getType());
      if (a.IsUnknown() || b.IsUnknown() || bits > 64) return CallOutcome::kDone;
      const bool is_signed = id == Ix::sadd_with_overflow || id == Ix::ssub_with_overflow ||
                             id == Ix::smul_with_overflow;
      auto sext = [&](uint64_t v) -> __int128 {
        if (bits >= 64) return static_cast<int64_t>(v);
        const unsigned shift = 64 - bits;
        return static_cast<int64_t>(v << shift) >> shift;
      };
      const __int128 x = is_signed ? sext(a.Bits()) : static_cast<__int128>(a.Bits());
      const __int128 y = is_signed ? sext(b.Bits()) : static_cast<__int128>(b.Bits());
      __int128 r = 0;
      if (id == Ix::uadd_with_overflow || id == Ix::sadd_with_overflow) r = x + y;
      else if (id == Ix::usub_with_overflow || id == Ix::ssub_with_overflow) r = x - y;
      else r = x * y;
      const uint64_t low = static_cast<uint64_t>(r) & MaskBits(bits);
      const __int128 back = is_signed ? sext(low) : static_cast<__int128>(low);
      (*result.elems)[0] = RV::Bits(low);
      (*result.elems)[1] = RV::Bits(back != r ? 1 : 0);
      return CallOutcome::kDone;
    }
    case Ix::umax:
    case Ix::umin:
    case Ix::smax:
    case Ix::smin: {
      const unsigned predicate = id == Ix::umax   ? llvm::CmpInst::ICMP_UGT
                                 : id == Ix::umin ? llvm::CmpInst::ICMP_ULT
                                 : id == Ix::smax ? llvm::CmpInst::ICMP_SGT
                                                  : llvm::CmpInst::ICMP_SLT;
      RV c = Compare(predicate, args[0], args[1], call.getType());
      if (!c.v.IsUnknown()) result = c.v.Bits() ? args[0] : args[1];
      return CallOutcome::kDone;
    }
    case Ix::bswap: {
      Value a = word(0);
      const unsigned bits = call.getType()->isIntegerTy() ? call.getType()->getIntegerBitWidth() : 0;
      if (!a.IsUnknown() && (bits == 16 || bits == 32 || bits == 64)) {
        uint64_t v = __builtin_bswap64(a.Bits()) >> (64 - bits);
        result = RV::Bits(v);
      }
      return CallOutcome::kDone;
    }
    case Ix::ctpop: {
      Value a = word(0);
      if (!a.IsUnknown()) result = RV::Bits(static_cast<uint64_t>(__builtin_popcountll(a.Bits())));
      return CallOutcome::kDone;
    }
    case Ix::ctlz:
    case Ix::cttz: {
      Value a = word(0);
      const unsigned bits = call.getType()->isIntegerTy() ? call.getType()->getIntegerBitWidth() : 0;
      if (a.IsUnknown() || bits == 0 || bits > 64) return CallOutcome::kDone;
      const uint64_t x = a.Bits() & MaskBits(bits);
      if (x == 0) {
        result = RV::Bits(bits);
      } else if (id == Ix::ctlz) {
        result = RV::Bits(static_cast<uint64_t>(__builtin_clzll(x)) - (64 - bits));
      } else {
        result = RV::Bits(static_cast<uint64_t>(__builtin_ctzll(x)));
      }
      return CallOutcome::kDone;
    }
    case Ix::abs: {
      Value a = word(0);
      const unsigned bits = call.getType()->isIntegerTy() ? call.getType()->getIntegerBitWidth() : 0;
      if (a.IsUnknown() || bits == 0 || bits > 64) return CallOutcome::kDone;
      const unsigned shift = 64 - bits;
      const int64_t v = static_cast<int64_t>(a.Bits() << shift) >> shift;
      result = RV::Bits(static_cast<uint64_t>(v < 0 ? -v : v) & MaskBits(bits));
      return CallOutcome::kDone;
    }
    case Ix::fshl:
    case Ix::fshr: {
      Value hi = word(0), lo = word(1), amount = word(2);
      const unsigned bits = call.getType()->isIntegerTy() ? call.getType()->getIntegerBitWidth() : 0;
      if (hi.IsUnknown() || lo.IsUnknown() || amount.IsUnknown() || bits == 0 || bits > 64)
        return CallOutcome::kDone;
      const unsigned k = static_cast<unsigned>(amount.Bits() % bits);
      const uint64_t m = MaskBits(bits), h = hi.Bits() & m, l = lo.Bits() & m;
      if (k == 0) {
        result = RV::Bits(id == Ix::fshl ? h : l);
      } else if (id == Ix::fshl) {
        result = RV::Bits(((h << k) | (l >> (bits - k))) & m);
      } else {
        result = RV::Bits(((h << (bits - k)) | (l >> k)) & m);
      }
      return CallOutcome::kDone;
    }
    case Ix::stacksave:
    case Ix::eh_typeid_for:
      return CallOutcome::kDone;
    default:
      if (callee->getName() == "llvm.x86.sse2.pause") {  // spin-wait hint
        preempt_ = true;
        return CallOutcome::kDone;
      }
      Note(call, "intrinsic '" + callee->getName().str() + "' is not interpreted: its result is unknown");
      return CallOutcome::kDone;
  }
}

}  // namespace snag::interp::ir
