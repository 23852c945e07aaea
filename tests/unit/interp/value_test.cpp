#include "interp/value.h"

#include <gtest/gtest.h>

namespace snag::interp {
namespace {

TEST(Value, ConcreteArithmeticStaysConcrete) {
  Value v = Value::Lift(Value::Concrete(40), Value::Concrete(2), [](uint64_t a, uint64_t b) { return a + b; });
  ASSERT_FALSE(v.IsUnknown());
  EXPECT_EQ(v.Bits(), 42u);
}

TEST(Value, UnknownPoisonsEitherSide) {
  auto add = [](uint64_t a, uint64_t b) { return a + b; };
  EXPECT_TRUE(Value::Lift(Value::Unknown(), Value::Concrete(1), add).IsUnknown());
  EXPECT_TRUE(Value::Lift(Value::Concrete(1), Value::Unknown(), add).IsUnknown());
  EXPECT_EQ(Value::Unknown(), Value::Unknown());
  EXPECT_NE(Value::Unknown(), Value::Concrete(0));
}

}  // namespace
}  // namespace snag::interp
