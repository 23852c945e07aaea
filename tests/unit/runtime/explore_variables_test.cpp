// Variable keys for variable bounding: globals by granule, heap blocks by
// allocation site and instance number, stable across schedules.
#include "engines/explore/variables.h"

#include <gtest/gtest.h>

namespace snag::explore {
namespace {

TEST(Variables, GlobalsAreKeyedByTheirGranule) {
  uint64_t instance, site;
  variable_keys(0x601043, &instance, &site);
  EXPECT_EQ(instance, 0x601040u);
  EXPECT_EQ(site, 0x601040u);
  EXPECT_EQ(variable_kind(instance), VariableKind::kGlobal);
  variable_keys(0x601047, &instance, &site);
  EXPECT_EQ(instance, 0x601040u);
  variable_keys(0x601048, &instance, &site);
  EXPECT_EQ(instance, 0x601048u);
}

TEST(Variables, HeapBlocksHaveInstanceAndSiteKeys) {
  const snag_site_t site = 0xabc;
  heap_block_allocated(0x5000100, 32, site);
  heap_block_allocated(0x5000200, 32, site);
  uint64_t first_instance, first_site, second_instance, second_site;
  variable_keys(0x5000100 + 31, &first_instance, &first_site);
  variable_keys(0x5000200, &second_instance, &second_site);
  EXPECT_EQ(variable_kind(first_instance), VariableKind::kHeapInstance);
  EXPECT_EQ(variable_kind(first_site), VariableKind::kHeapSite);
  EXPECT_EQ(first_site, second_site);          // one allocation site
  EXPECT_NE(first_instance, second_instance);  // two blocks from it
  uint64_t outside, unused;
  variable_keys(0x5000100 + 32, &outside, &unused);
  EXPECT_EQ(variable_kind(outside), VariableKind::kGlobal);
  heap_block_freed(0x5000100);
  uint64_t after;
  variable_keys(0x5000100, &after, &unused);
  EXPECT_EQ(after, 0x5000100u);  // plain memory again
}

TEST(Variables, LargeBlocksAreFoundAnywhereInside) {
  heap_block_allocated(0x6000000, 5 * 4096, 0xdef);
  uint64_t instance, site;
  variable_keys(0x6000000 + 5 * 4096 - 1, &instance, &site);
  EXPECT_EQ(variable_kind(instance), VariableKind::kHeapInstance);
  heap_block_freed(0x6000000);
  variable_keys(0x6000000 + 4096, &instance, &site);
  EXPECT_EQ(variable_kind(instance), VariableKind::kGlobal);
}

}  // namespace
}  // namespace snag::explore
