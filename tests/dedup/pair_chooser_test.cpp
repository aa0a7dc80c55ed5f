#include "dedup/pair_chooser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/hash.h"

namespace winnow {
namespace {

// The reference: every removal's seeded hash, sorted, the first `count` taken.
std::vector<uint64_t> smallest_by_hash(std::vector<uint64_t> keys, size_t count, uint64_t seed) {
  std::sort(keys.begin(), keys.end(),
            [seed](uint64_t a, uint64_t b) { return hash_u64(a, seed) < hash_u64(b, seed); });
  keys.resize(std::min(count, keys.size()));
  return keys;
}

std::vector<uint64_t> removed_of(const PairChooser& chooser) {
  std::vector<uint64_t> out;
  for (const ChosenPair& p : chooser.chosen()) out.push_back(p.removed);
  return out;
}

TEST(PairChooser, KeepsTheSmallestSeededHashesWhateverTheOrder) {
  std::vector<uint64_t> keys;
  for (uint64_t k = 0; k < 1000; ++k) keys.push_back(k * 7919 + 13);
  std::vector<uint64_t> expected = smallest_by_hash(keys, 6, 42);
  std::mt19937_64 rng(38);
  for (int order = 0; order < 3; ++order) {
    std::shuffle(keys.begin(), keys.end(), rng);
    PairChooser chooser(6, 42);
    for (uint64_t k : keys) chooser.offer(k, k + 1);
    EXPECT_EQ(removed_of(chooser), expected);
    for (const ChosenPair& p : chooser.chosen()) EXPECT_EQ(p.survivor, p.removed + 1);
  }
  PairChooser other_seed(6, 7);
  for (uint64_t k : keys) other_seed.offer(k, 0);
  EXPECT_NE(removed_of(other_seed), expected);
}

// Ranks each choose among their own removals; merged, they choose as one chooser over all.
TEST(PairChooser, MergedChoicesOfSeveralRanksAreTheWholeRunsChoice) {
  PairChooser whole(5, 1), rank0(5, 1), rank1(5, 1), rank2(5, 1);
  PairChooser* ranks[] = {&rank0, &rank1, &rank2};
  for (uint64_t k = 0; k < 300; ++k) {
    whole.offer(k, 1000 + k, 0.5f);
    ranks[k % 3]->offer(k, 1000 + k, 0.5f);
  }
  PairChooser merged(5, 1);
  for (PairChooser* r : ranks) merged.merge(r->serialize());
  merged.merge(rank0.serialize());  // a rank's own choice again changes nothing
  ASSERT_EQ(merged.chosen().size(), 5u);
  EXPECT_EQ(removed_of(merged), removed_of(whole));
  EXPECT_EQ(merged.chosen()[0].survivor, whole.chosen()[0].survivor);
  EXPECT_EQ(merged.chosen()[0].value, 0.5f);
}

TEST(PairChooser, NoneWhenCountIsZero) {
  PairChooser chooser(0, 1);
  chooser.offer(1, 2);
  EXPECT_TRUE(chooser.chosen().empty());
}

}  // namespace
}  // namespace winnow
