// The host side of semantic dedup's GPU path (dedup/semantic_device.h): from products rounded
// otherwise than the CPU's (each one moved by a seeded amount up to the float error bound, as
// another BLAS or a GPU may round it), the settled decisions are the CPU path's, bit for bit.
// The GPU itself is checked against the CPU in tests/gpu/blas/ when a device is present.
#include "dedup/semantic_device.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>

#include "dedup/double_products.h"
#include "dedup/kmeans.h"
#include "dedup/planted_rows.h"

namespace winnow {
namespace {

// a . b as a device with other rounding may give it: the exact value moved by up to 0.99 of the
// float error bound, then rounded to float.
float rounded_otherwise(const float* a, const float* b, size_t d, std::mt19937& rng) {
  const double bound = float_product_error(d) * length_in_double(a, d) * length_in_double(b, d);
  std::uniform_real_distribution<double> shift(-0.99 * bound, 0.99 * bound);
  return static_cast<float>(dot_in_double(a, b, d) + shift(rng));
}

// What the GPU kernel returns per row: the best earlier row (first of equals, 0 floor, the row
// itself when none is above 0) and the largest value of any other earlier row.
struct TopTwo {
  std::vector<float> best, second;
  std::vector<uint32_t> matched;
};
TopTwo top_two_rounded_otherwise(const std::vector<float>& x, size_t n, size_t d, unsigned seed) {
  std::mt19937 rng(seed);
  TopTwo t{std::vector<float>(n, 0.0f), std::vector<float>(n, 0.0f), std::vector<uint32_t>(n)};
  for (size_t j = 0; j < n; ++j) {
    t.matched[j] = static_cast<uint32_t>(j);
    for (size_t i = 0; i < j; ++i) {
      const float s = rounded_otherwise(&x[j * d], &x[i * d], d, rng);
      if (s > t.best[j]) {
        t.second[j] = t.best[j];
        t.best[j] = s;
        t.matched[j] = static_cast<uint32_t>(i);
      } else {
        t.second[j] = std::max(t.second[j], s);
      }
    }
  }
  return t;
}

TEST(SemanticDevice, SettledPruningIsTheCpusFromProductsRoundedOtherwise) {
  const size_t d = 41;
  for (size_t n : {2u, 97u, 400u}) {
    auto x = edge_rows(n, d, static_cast<unsigned>(n) + 5);
    PruneOptions options;
    options.block = 64;
    // Thresholds on pairs' exact similarities: a product rounded down would miss them.
    options.thresholds = {0.999};
    for (size_t j = 1; j < n && options.thresholds.size() < 4; j += 3) {
      const double c = dot_in_double(&x[j * d], &x[(j - 1) * d], d);
      if (c > 0.5 && c < 1.0) options.thresholds.push_back(c);
    }
    const PruneResult cpu = prune_cluster(x.data(), n, d, options);
    size_t removed = 0;
    for (unsigned seed : {1u, 2u, 3u}) {
      const TopTwo gpu = top_two_rounded_otherwise(x, n, d, seed);
      for (int threads : {1, 3}) {
        options.threads = threads;
        PruneResult settled;
        settle_max_similarity(x.data(), n, d, options, gpu.best, gpu.matched, gpu.second, settled);
        for (size_t j = 0; j < n; ++j) {
          ASSERT_EQ(settled.removed[j], cpu.removed[j]) << n << " seed " << seed << " row " << j;
          if (cpu.removed[j] == 0) continue;
          ++removed;
          EXPECT_EQ(settled.matched[j], cpu.matched[j]) << n << " row " << j;
          EXPECT_EQ(settled.max_similarity[j], cpu.max_similarity[j]) << n << " row " << j;
        }
      }
    }
    if (n > 2) {
      EXPECT_GT(removed, 0u) << n;
    }
  }
}

TEST(SemanticDevice, SettledAssignmentIsTheCpusFromProductsRoundedOtherwise) {
  const size_t n = 600, d = 23, k = 12;
  auto x = planted_unit_rows(n, d, 4, 0.01f, 5);
  // Centroids in near-tied pairs: centroid 2m + 1 is 2m with one component nudged by an ulp,
  // and rows planted on centroids, so many rows sit within the float error of two of them.
  auto centroids = planted_unit_rows(k, d, 8, 0.0f, 1);
  for (size_t m = 0; 2 * m + 1 < k; ++m) {
    std::copy(&centroids[2 * m * d], &centroids[(2 * m + 1) * d], &centroids[(2 * m + 1) * d]);
    centroids[(2 * m + 1) * d + m] = std::nextafter(centroids[(2 * m + 1) * d + m], 2.0f);
  }
  for (size_t r = 0; r < n; r += 4) std::copy(&centroids[(r % k) * d], &centroids[(r % k + 1) * d], &x[r * d]);
  for (bool inner_product : {true, false}) {
    std::vector<int64_t> cpu_labels(n);
    std::vector<float> cpu_scores(n);
    assign_nearest(x.data(), n, d, centroids.data(), k, inner_product, 2, cpu_labels.data(),
                   cpu_scores.data());
    const NearestCentroid nearest(centroids.data(), k, d, inner_product);
    std::mt19937 rng(inner_product ? 17 : 19);
    size_t near_ties = 0;
    for (size_t r = 0; r < n; ++r) {
      // The device's view: its best centroid, its score and the runner-up's, in the products'
      // sense (inner products, or squared distances from products rounded otherwise).
      int64_t best = -1;
      float best_score = 0, second_score = inner_product ? -FLT_MAX : FLT_MAX;
      for (size_t c = 0; c < k; ++c) {
        float s = rounded_otherwise(&x[r * d], &centroids[c * d], d, rng);
        if (!inner_product) {
          s = static_cast<float>(dot_in_double(&x[r * d], &x[r * d], d) +
                                 dot_in_double(&centroids[c * d], &centroids[c * d], d) - 2.0 * s);
        }
        const bool better = best < 0 || (inner_product ? s > best_score : s < best_score);
        if (better) {
          if (best >= 0) second_score = best_score;
          best = static_cast<int64_t>(c), best_score = s;
        } else {
          second_score = inner_product ? std::max(second_score, s) : std::min(second_score, s);
        }
      }
      near_ties += std::abs(double{second_score} - best_score) < 1e-5;
      int64_t label;
      float score;
      nearest.decide_from_top_two(&x[r * d], best, best_score, second_score, label, score);
      ASSERT_EQ(label, cpu_labels[r]) << inner_product << " row " << r;
      EXPECT_EQ(score, cpu_scores[r]) << inner_product << " row " << r;
    }
    EXPECT_GT(near_ties, n / 8) << "the rows must exercise the near-tie path";
  }
}

}  // namespace
}  // namespace winnow
