// The pruning's exact decisions (dedup/prune_tile.h): whatever the tile size, the thread count
// or the streaming, a removed row's decision, match and similarity are those of a brute-force
// reference in fixed-order double arithmetic, bit for bit, on rows built to sit on the edges:
// thresholds equal to a pair's exact similarity, exact copies (equal maxima), and near-copies
// whose two best matches differ by less than the float products' error.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dedup/cluster_pruner.h"
#include "dedup/double_products.h"
#include "dedup/planted_rows.h"

namespace winnow {
namespace {

struct Reference {
  std::vector<double> best;       // exact best over earlier (kept) rows, 0 floor
  std::vector<uint32_t> matched;  // its row (first of equals), the row itself when none > 0
  std::vector<uint32_t> removed;
};

// NeMo's rule (greedy false) or keep_one_per_group's, in double, for the first threshold's
// best and match and every threshold's bit.
Reference reference(const std::vector<float>& x, size_t n, size_t d,
                    const std::vector<double>& thresholds, bool greedy) {
  Reference r{std::vector<double>(n, 0.0), std::vector<uint32_t>(n), std::vector<uint32_t>(n, 0)};
  for (size_t j = 0; j < n; ++j) {
    for (size_t t = 0; t < thresholds.size(); ++t) {
      double best = 0;
      uint32_t best_i = static_cast<uint32_t>(j);
      for (size_t i = 0; i < j; ++i) {
        if (greedy && (r.removed[i] >> t & 1)) continue;
        const double c = dot_in_double(&x[j * d], &x[i * d], d);
        if (c > best) best = c, best_i = static_cast<uint32_t>(i);
      }
      if (best >= thresholds[t]) r.removed[j] |= uint32_t{1} << t;
      if (t == 0) r.best[j] = best, r.matched[j] = best_i;
    }
  }
  return r;
}

// Thresholds sitting exactly on pairs' double similarities, so a float product rounded down
// would miss them.
std::vector<double> edge_thresholds(const std::vector<float>& x, size_t n, size_t d) {
  std::vector<double> values;
  for (size_t j = 1; j < n && values.size() < 3; ++j) {
    const double c = dot_in_double(&x[j * d], &x[(j - 1) * d], d);
    if (c > 0.5 && c < 1.0) values.push_back(c);
  }
  values.push_back(0.999);
  return values;
}

void expect_exact(const PruneResult& r, const Reference& want, const std::vector<double>& thresholds,
                  const std::string& what) {
  size_t removed = 0;
  for (size_t j = 0; j < want.best.size(); ++j) {
    ASSERT_EQ(r.removed[j], want.removed[j]) << what << " row " << j;
    if (want.best[j] >= thresholds[0]) {
      ++removed;
      EXPECT_EQ(r.matched[j], want.matched[j]) << what << " row " << j;
      EXPECT_EQ(r.max_similarity[j], static_cast<float>(want.best[j])) << what << " row " << j;
    }
  }
  EXPECT_GT(removed, 0u) << what;
}

TEST(PruneTile, NeMoRuleDecidesAsExactArithmeticForAnyBlocking) {
  const size_t d = 37;
  for (size_t n : {50u, 301u}) {
    auto x = edge_rows(n, d, static_cast<unsigned>(n));
    auto thresholds = edge_thresholds(x, n, d);
    const Reference want = reference(x, n, d, thresholds, false);
    for (size_t block : {1u, 3u, 64u, 1024u}) {
      for (int threads : {1, 2}) {
        PruneOptions options;
        options.block = block;
        options.threads = threads;
        options.thresholds = thresholds;
        expect_exact(prune_cluster(x.data(), n, d, options), want, thresholds,
                     "n " + std::to_string(n) + " block " + std::to_string(block));
      }
    }
  }
}

TEST(PruneTile, KeepOnePerGroupDecidesAsExactArithmeticForAnyBlocking) {
  const size_t n = 240, d = 29;
  auto x = edge_rows(n, d, 11);
  auto thresholds = edge_thresholds(x, n, d);
  const Reference want = reference(x, n, d, thresholds, true);
  for (size_t block : {1u, 5u, 64u, 512u}) {
    PruneOptions options;
    options.block = block;
    options.keep_one_per_group = true;
    options.thresholds = thresholds;
    expect_exact(prune_cluster(x.data(), n, d, options), want, thresholds,
                 "block " + std::to_string(block));
  }
}

}  // namespace
}  // namespace winnow
