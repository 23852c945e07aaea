// A value in the static interpreter: either a concrete 64-bit pattern (integer
// or model address) or *unknown* -- the result of program inputs, external
// calls and functions without a body (paper 001). Arithmetic on unknown stays
// unknown, so the interpreter never invents a concrete value it cannot justify.
#pragma once

#include <cstdint>
#include <optional>

namespace snag::interp {

class Value {
 public:
  static Value Unknown() { return Value(); }
  static Value Concrete(uint64_t bits) { return Value(bits); }

  bool IsUnknown() const { return !bits_.has_value(); }
  // Only valid when !IsUnknown().
  uint64_t Bits() const { return *bits_; }

  // Binary operation lifted over unknown: unknown if either side is.
  template <typename Op>
  static Value Lift(Value a, Value b, Op op) {
    if (a.IsUnknown() || b.IsUnknown()) return Unknown();
    return Concrete(op(a.Bits(), b.Bits()));
  }

  bool operator==(const Value&) const = default;

 private:
  Value() = default;
  explicit Value(uint64_t bits) : bits_(bits) {}
  std::optional<uint64_t> bits_;
};

}  // namespace snag::interp
