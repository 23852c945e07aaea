// A thread's cache of (site, calling context) ids (site_stacks.h): the
// pairs a code path uses in turn stay in it when they meet in one set.
#include "engines/race/site_stacks.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace snag::race {
namespace {

// The id the stand-in for intern_access_stack makes for a pair.
uint32_t id_of(snag_site_t site, StackId context) { return (static_cast<uint32_t>(site) ^ (context << 20)) | 1u; }
uint32_t g_interned = 0;
uint32_t count_and_make(snag_site_t site, StackId context) {
  ++g_interned;
  return id_of(site, context);
}

// `count` sites with `context` whose pairs all fall in one set.
std::vector<snag_site_t> sites_in_one_set(uint32_t count, StackId context) {
  std::vector<snag_site_t> sites;
  const uint32_t set = SiteStackCache::set_of(0x400000, context);
  for (snag_site_t site = 0x400000; sites.size() < count; ++site)
    if (SiteStackCache::set_of(site, context) == set) sites.push_back(site);
  return sites;
}

TEST(SiteStacks, ThreePairsUsedInTurnInOneSetAreInternedOnce) {
  // pipeline's queue operations: three accesses of one path whose pairs
  // met in one set interned on every use with two ways per set.
  auto cache = std::make_unique<SiteStackCache>();
  const std::vector<snag_site_t> sites = sites_in_one_set(3, 77);
  g_interned = 0;
  for (int round = 0; round < 10; ++round)
    for (snag_site_t site : sites)
      EXPECT_EQ(cache->get(site, 77, count_and_make), id_of(site, 77));
  EXPECT_EQ(g_interned, 3u) << "each pair interned once, then found in its set";
}

TEST(SiteStacks, ANewPairPushesTheSetsOldestOut) {
  auto cache = std::make_unique<SiteStackCache>();
  const std::vector<snag_site_t> sites = sites_in_one_set(SiteStackCache::kWays + 1, 5);
  g_interned = 0;
  for (snag_site_t site : sites) cache->get(site, 5, count_and_make);
  EXPECT_EQ(g_interned, SiteStackCache::kWays + 1);
  cache->get(sites.back(), 5, count_and_make);  // the newest: still there
  cache->get(sites[1], 5, count_and_make);      // the oldest left: still there
  EXPECT_EQ(g_interned, SiteStackCache::kWays + 1);
  cache->get(sites[0], 5, count_and_make);  // the first was pushed out
  EXPECT_EQ(g_interned, SiteStackCache::kWays + 2);
}

TEST(SiteStacks, APairIsKeyedByItsSiteAndItsContext) {
  auto cache = std::make_unique<SiteStackCache>();
  g_interned = 0;
  const uint32_t a = cache->get(0x1234, 1, count_and_make);
  const uint32_t b = cache->get(0x1234, 2, count_and_make);
  EXPECT_NE(a, b);
  EXPECT_EQ(cache->get(0x1234, 1, count_and_make), a);
  EXPECT_EQ(cache->get(0x1234, 2, count_and_make), b);
  EXPECT_EQ(g_interned, 2u);
}

}  // namespace
}  // namespace snag::race
