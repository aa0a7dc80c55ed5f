#include "dedup/star_groups.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace winnow {
namespace {

TEST(StarGroups, AChainBreaksAtTheFirstMemberNotLinkedToItsSurvivor) {
  // 0 - 1 - 2 - 3: 0 takes 1; 2 is left to lead its own star and takes 3.
  const std::vector<std::pair<uint32_t, uint32_t>> chain = {{0, 1}, {2, 1}, {2, 3}};
  EXPECT_EQ(assign_star_centres(4, {0, 1, 2, 3}, chain), (std::vector<uint32_t>{0, 0, 2, 2}));
  // Best first is 1: it takes both its neighbours; 3 is alone.
  EXPECT_EQ(assign_star_centres(4, {1, 0, 2, 3}, chain), (std::vector<uint32_t>{1, 1, 1, 3}));
}

// On random graphs, against the definition: every member is its own centre or linked to its
// centre; a centre is linked to no centre before it in the order; a member assigned to a centre
// is linked to no centre before that one. The links' order and repeats change nothing.
TEST(StarGroups, RandomGraphsFollowTheDefinition) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const uint32_t n = 1 + rng() % 40;
    std::vector<std::pair<uint32_t, uint32_t>> links;
    std::set<std::pair<uint32_t, uint32_t>> linked;
    for (uint32_t k = 0; k < n * 2; ++k) {
      uint32_t a = rng() % n, b = rng() % n;
      if (a == b) continue;
      links.emplace_back(a, b);
      linked.insert({a, b});
      linked.insert({b, a});
    }
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<uint32_t> rank(n);
    for (uint32_t i = 0; i < n; ++i) rank[order[i]] = i;
    const std::vector<uint32_t> centre = assign_star_centres(n, order, links);
    for (uint32_t m = 0; m < n; ++m) {
      const uint32_t c = centre[m];
      ASSERT_LT(c, n);
      EXPECT_EQ(centre[c], c);
      if (c != m) EXPECT_TRUE(linked.count({m, c}));
      for (uint32_t other = 0; other < n; ++other) {
        if (centre[other] == other && other != c && rank[other] < rank[c]) {
          EXPECT_FALSE(linked.count({m, other})) << m << " could have gone to " << other;
        }
      }
    }
    std::vector<std::pair<uint32_t, uint32_t>> shuffled = links;
    shuffled.insert(shuffled.end(), links.begin(), links.end());
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    EXPECT_EQ(assign_star_centres(n, order, shuffled), centre);
  }
}

}  // namespace
}  // namespace winnow
