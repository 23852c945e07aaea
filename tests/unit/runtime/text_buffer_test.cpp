#include <gtest/gtest.h>

#include <string>

#include "core/text_buffer.h"

namespace snag {
namespace {

std::string str(const TextBuffer &b) { return std::string(b.data(), b.size()); }

TEST(TextBuffer, NumbersAndText) {
  TextBuffer b;
  b.add("x=").add_u64(0).add(' ').add_u64(18446744073709551615ull).add(' ').add_i64(-42);
  EXPECT_EQ(str(b), "x=0 18446744073709551615 -42");
}

TEST(TextBuffer, HexAndAddresses) {
  TextBuffer b;
  b.add_hex(0xbeef).add(' ').add_hex(0x1, 16).add(' ').add_address(0x7f00);
  EXPECT_EQ(str(b), "beef 0000000000000001 0x000000007f00");
}

TEST(TextBuffer, Doubles) {
  TextBuffer b;
  b.add_double(0.9).add(' ').add_double(1.0006).add(' ').add_double(0.0).add(' ').add_double(2.9996);
  EXPECT_EQ(str(b), "0.900 1.001 0.000 3.000");
}

TEST(TextBuffer, JsonEscaping) {
  TextBuffer b;
  b.add_json_string("a\"b\\c\nd\te\x01");
  EXPECT_EQ(str(b), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
}

TEST(TextBuffer, GrowsPastInitialCapacity) {
  TextBuffer b;
  for (int i = 0; i < 10000; ++i) b.add('x');
  EXPECT_EQ(b.size(), 10000u);
}

}  // namespace
}  // namespace snag
