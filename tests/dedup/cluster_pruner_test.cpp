// prune_cluster against a straightforward all-pairs reference (double precision), for awkward
// sizes and block sizes, in both modes (NeMo's, and keep_one_per_group's greedy).
#include "dedup/cluster_pruner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dedup/planted_rows.h"

namespace winnow {
namespace {

// Unit rows with planted near-copies (planted_rows.h).
std::vector<float> planted_rows(size_t n, size_t d, unsigned seed) {
  return planted_unit_rows(n, d, seed, 0.02f, 20);
}

double cosine(const std::vector<float>& x, size_t d, size_t a, size_t b) {
  double s = 0;
  for (size_t j = 0; j < d; ++j) s += double{x[a * d + j]} * x[b * d + j];
  return s;
}

TEST(ClusterPruner, MatchesAllPairsForAnyBlock) {
  for (size_t n : {1u, 2u, 17u, 200u}) {
    const size_t d = 13;
    auto x = planted_rows(n, d, static_cast<unsigned>(n));
    std::vector<double> thresholds = {0.99, 0.95, 0.9};
    for (size_t block : {1u, 7u, 64u, 1024u}) {
      PruneOptions options;
      options.block = block;
      options.thresholds = thresholds;
      PruneResult r = prune_cluster(x.data(), n, d, options);
      for (size_t j = 0; j < n; ++j) {
        double best = 0;
        size_t best_i = j;
        for (size_t i = 0; i < j; ++i) {
          double c = cosine(x, d, i, j);
          if (c > best) best = c, best_i = i;
        }
        EXPECT_NEAR(r.max_similarity[j], best, 1e-5) << n << " " << block << " " << j;
        if (r.removed[j] != 0) {  // the matched row is reported for removed rows
          EXPECT_EQ(r.matched[j], best_i);
        }
        for (size_t t = 0; t < thresholds.size(); ++t) {
          if (std::abs(best - thresholds[t]) > 1e-5) {
            EXPECT_EQ((r.removed[j] >> t) & 1, best >= thresholds[t] ? 1u : 0u);
          }
        }
      }
    }
  }
}

TEST(ClusterPruner, KeepOnePerGroupLetsOnlyKeptItemsRemove) {
  const size_t n = 150, d = 9;
  auto x = planted_rows(n, d, 7);
  std::vector<double> thresholds = {0.97, 0.9};
  PruneOptions options;
  options.block = 16;
  options.keep_one_per_group = true;
  options.thresholds = thresholds;
  PruneResult r = prune_cluster(x.data(), n, d, options);
  for (size_t t = 0; t < thresholds.size(); ++t) {
    std::vector<bool> removed(n, false);
    for (size_t j = 0; j < n; ++j) {
      for (size_t i = 0; i < j; ++i) {
        if (!removed[i] && cosine(x, d, i, j) >= thresholds[t]) removed[j] = true;
      }
      EXPECT_EQ(((r.removed[j] >> t) & 1) != 0, removed[j]) << t << " " << j;
    }
  }
  // Plain mode removes at least as many (an item matched by a removed item still goes).
  options.keep_one_per_group = false;
  PruneResult plain = prune_cluster(x.data(), n, d, options);
  size_t greedy_removed = 0, plain_removed = 0;
  for (size_t j = 0; j < n; ++j) {
    greedy_removed += r.removed[j] & 1;
    plain_removed += plain.removed[j] & 1;
  }
  EXPECT_GE(plain_removed, greedy_removed);
  EXPECT_GT(greedy_removed, 0u);
}

TEST(ClusterPruner, SameResultForAnyThreadCount) {
  const size_t n = 500, d = 11;
  auto x = planted_rows(n, d, 9);
  PruneOptions options;
  options.block = 32;
  options.thresholds = {0.99, 0.9};
  PruneResult one = prune_cluster(x.data(), n, d, options);
  for (int threads : {2, 3, 8}) {
    options.threads = threads;
    PruneResult other = prune_cluster(x.data(), n, d, options);
    EXPECT_EQ(other.max_similarity, one.max_similarity) << threads;
    EXPECT_EQ(other.matched, one.matched) << threads;
    EXPECT_EQ(other.removed, one.removed) << threads;
  }
}

TEST(ClusterPruner, FlopCountCoversTheUpperTriangle) {
  // One block: the whole square; many blocks: about half of it plus the diagonal blocks.
  EXPECT_DOUBLE_EQ(prune_flops(100, 10, 1000), 2.0 * 100 * 100 * 10);
  EXPECT_LT(prune_flops(1000, 10, 100), 0.6 * 2.0 * 1000 * 1000 * 10);
}

}  // namespace
}  // namespace winnow
