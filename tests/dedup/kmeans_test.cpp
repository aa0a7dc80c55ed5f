// train_kmeans / assign_nearest: separated blobs are found; the result is bit-identical for
// 1, 2 and 4 threads, and for any order of the rows; max_points_per_centroid caps what the fit
// sees; near-tied centroids are decided as exact arithmetic decides them (a long double brute
// force); centroid sums are the same bits however the rows are divided; the fit divided
// between 1..8 ranks (threads standing in for processes) is the one-process fit, bit for bit,
// on blobs with rows planted at near-tied midpoints, with and without the cap.
#include "dedup/kmeans.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "core/hash.h"
#include "dedup/centroid_sums.h"
#include "dist/thread_comm.h"

namespace winnow {
namespace {

// `k` well-separated unit directions, `per` noisy unit points around each.
std::vector<float> blobs(size_t k, size_t per, size_t d, std::vector<int>& truth) {
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  std::vector<float> centres(k * d);
  for (float& v : centres) v = normal(rng);
  std::vector<float> x;
  for (size_t i = 0; i < k * per; ++i) {
    size_t c = (i * 7919) % k;  // interleaved, so the input order is not by blob
    truth.push_back(static_cast<int>(c));
    double norm = 0;
    std::vector<float> row(d);
    for (size_t j = 0; j < d; ++j) {
      row[j] = centres[c * d + j] + 0.05f * normal(rng);
      norm += double{row[j]} * row[j];
    }
    for (float v : row) x.push_back(static_cast<float>(v / std::sqrt(norm)));
  }
  return x;
}

TEST(KMeans, FindsSeparatedBlobsTheSameForAnyThreadCount) {
  // Three centroids per blob: random initialisation then never has to merge two blobs.
  const size_t blob_count = 6, k = 18, per = 300, d = 24, n = blob_count * per;
  std::vector<int> truth;
  auto x = blobs(blob_count, per, d, truth);
  std::vector<float> first_centroids;
  std::vector<int64_t> first_labels;
  for (int threads : {1, 2, 4}) {
    KMeansOptions o;
    o.clusters = k;
    o.max_iter = 50;
    o.seed = 11;
    o.threads = threads;
    auto fit = train_kmeans(x.data(), nullptr, n, d, o);
    ASSERT_TRUE(fit.is_ok()) << fit.status().message();
    std::vector<int64_t> labels(n);
    std::vector<float> score(n);
    assign_nearest(x.data(), n, d, fit->centroids.data(), k, true, threads, labels.data(),
                   score.data());
    if (first_centroids.empty()) {
      first_centroids = fit->centroids;
      first_labels = labels;
      // Every cluster holds points of one blob only.
      std::map<int64_t, std::set<int>> blobs_of;
      for (size_t i = 0; i < n; ++i) blobs_of[labels[i]].insert(truth[i]);
      for (const auto& [cluster, found] : blobs_of) EXPECT_EQ(found.size(), 1u) << cluster;
      EXPECT_LE(fit->iterations, 50);
    } else {
      EXPECT_EQ(fit->centroids, first_centroids) << threads << " threads";
      EXPECT_EQ(labels, first_labels) << threads << " threads";
    }
  }
}

TEST(KMeans, MaxPointsPerCentroidCapsTheFit) {
  std::vector<int> truth;
  auto x = blobs(4, 500, 8, truth);
  KMeansOptions o;
  o.clusters = 4;
  o.max_points_per_centroid = 50;
  auto fit = train_kmeans(x.data(), nullptr, 2000, 8, o);
  ASSERT_TRUE(fit.is_ok());
  EXPECT_EQ(fit->trained_on, 200u);
  o.clusters = 3000;
  EXPECT_FALSE(train_kmeans(x.data(), nullptr, 2000, 8, o).is_ok());
}

// Centroids in pairs a few float ulps apart (and one exact copy), rows near them: the float
// products cannot tell many pairs apart, so the float argmax is often the wrong one of the two.
// assign_nearest must give the argmax of the exact products (long double here), ties to the
// smaller index, and their value as the score.
TEST(KMeans, NearTiedCentroidsAreDecidedAsExactArithmeticWould) {
  std::mt19937 rng(17);
  std::normal_distribution<float> normal;
  for (size_t d : {1, 7, 97, 384}) {
    const size_t pairs = 20, k = 2 * pairs + 1, n = 517;
    std::vector<float> centroids(k * d);
    for (size_t p = 0; p < pairs; ++p) {
      for (size_t j = 0; j < d; ++j) {
        float v = normal(rng);
        centroids[2 * p * d + j] = v;
        // A few ulps off, in a random direction: the pair's products differ by about the
        // float rounding of the products themselves.
        float off = v * (1 + 4e-7f * normal(rng));
        centroids[(2 * p + 1) * d + j] = off;
      }
    }
    // The last centroid is an exact copy of centroid 6: a true tie, which goes to 6.
    std::copy(centroids.begin() + 6 * d, centroids.begin() + 7 * d, centroids.end() - d);
    std::vector<float> x(n * d);
    for (size_t i = 0; i < n; ++i) {
      size_t near = 2 * (i % pairs);
      for (size_t j = 0; j < d; ++j) x[i * d + j] = centroids[near * d + j] + 0.01f * normal(rng);
    }
    for (bool inner_product : {true, false}) {
      for (int threads : {1, 2}) {
        std::vector<int64_t> labels(n);
        std::vector<float> score(n);
        assign_nearest(x.data(), n, d, centroids.data(), k, inner_product, threads,
                       labels.data(), score.data());
        size_t won_by_the_perturbed_member = 0;
        for (size_t i = 0; i < n; ++i) {
          int64_t best = -1;
          long double best_value = 0;
          for (size_t c = 0; c < k; ++c) {
            long double dot = 0, dist = 0;
            for (size_t j = 0; j < d; ++j) {
              long double a = x[i * d + j], b = centroids[c * d + j];
              dot += a * b;
              dist += (a - b) * (a - b);
            }
            long double value = inner_product ? dot : -dist;
            if (best < 0 || value > best_value) best = static_cast<int64_t>(c), best_value = value;
          }
          ASSERT_EQ(labels[i], best) << "d " << d << " row " << i << " inner " << inner_product;
          double expected = static_cast<double>(inner_product ? best_value : -best_value);
          ASSERT_NEAR(score[i], expected, 1e-6 * std::max(1.0, std::abs(expected)));
          won_by_the_perturbed_member += best % 2 == 1;
        }
        // Both members of the pairs win somewhere: the test is about near ties.
        if (d > 1) {
          EXPECT_GT(won_by_the_perturbed_member, 0u) << d;
        }
      }
    }
  }
}

// The rows in another order, each with its key: the same centroids and labels bit for bit
// (the sample and the start are drawn by key; the sums are exact), with and without the cap.
TEST(KMeans, TheFitDependsOnTheKeysNotOnTheRowsOrder) {
  std::vector<int> truth;
  const size_t n = 1500, d = 19, k = 7;
  auto x = blobs(5, n / 5, d, truth);
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = i * 0x9E3779B97F4A7C15ull + 1;  // distinct, unordered
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  std::vector<float> shuffled(n * d);
  std::vector<uint64_t> shuffled_keys(n);
  for (size_t i = 0; i < n; ++i) {
    std::copy(x.begin() + order[i] * d, x.begin() + (order[i] + 1) * d, shuffled.begin() + i * d);
    shuffled_keys[i] = keys[order[i]];
  }
  for (size_t cap : {size_t{1000}, size_t{50}}) {
    KMeansOptions o;
    o.clusters = k;
    o.max_iter = 20;
    o.max_points_per_centroid = cap;
    auto a = train_kmeans(x.data(), keys.data(), n, d, o);
    auto b = train_kmeans(shuffled.data(), shuffled_keys.data(), n, d, o);
    ASSERT_TRUE(a.is_ok() && b.is_ok());
    EXPECT_EQ(a->centroids, b->centroids) << cap;
    EXPECT_EQ(a->objective, b->objective) << cap;
    EXPECT_EQ(a->trained_on, std::min(n, k * cap));
  }
}

// Partial sums over any division of the rows, merged in any order, give the sums over all of
// them: the same centroids and objective, bit for bit; and the centroid is the mean (checked
// in long double) to the fixed point's precision.
TEST(CentroidSums, AnyDivisionOfTheRowsGivesTheSameCentroids) {
  std::mt19937 rng(23);
  std::normal_distribution<float> normal;
  const size_t n = 1001, d = 13, k = 5;
  std::vector<float> x(n * d);
  for (float& v : x) v = 3 * normal(rng);
  std::vector<int64_t> labels(n);
  std::vector<float> scores(n);
  for (size_t i = 0; i < n; ++i) labels[i] = static_cast<int64_t>(rng() % (k - 1));  // k-1: empty
  for (float& s : scores) s = std::abs(normal(rng));
  const CentroidScale scale = centroid_scale(x.data(), x.size());
  CentroidSums whole(k, d, scale);
  whole.add(x.data(), n, labels.data(), scores.data());
  CentroidSums parts(k, d, scale);
  for (size_t cut : {size_t{700}, size_t{300}, size_t{0}}) {  // later rows first
    const size_t end = cut == 700 ? n : cut == 300 ? 700 : 300;
    CentroidSums part(k, d, scale);
    part.add(x.data() + cut * d, end - cut, labels.data() + cut, scores.data() + cut);
    parts.merge(part);
  }
  std::vector<float> a, b;
  whole.update(a, false);
  parts.update(b, false);
  EXPECT_EQ(a, b);
  EXPECT_EQ(whole.objective(), parts.objective());
  EXPECT_EQ(whole.counts(), parts.counts());
  // The means, the empty last cluster split off the largest.
  size_t largest = 0;
  for (size_t c = 1; c < k; ++c) {
    if (whole.counts()[c] > whole.counts()[largest]) largest = c;
  }
  for (size_t c = 0; c + 1 < k; ++c) {
    for (size_t j = 0; j < d; ++j) {
      long double sum = 0;
      size_t count = 0;
      for (size_t i = 0; i < n; ++i) {
        if (labels[i] == static_cast<int64_t>(c)) sum += x[i * d + j], ++count;
      }
      long double mean = sum / count;
      if (c == largest) mean *= j % 2 == 0 ? 1 - 1.0L / 1024 : 1 + 1.0L / 1024;
      EXPECT_NEAR(a[c * d + j], static_cast<double>(mean), 1e-6) << c << " " << j;
    }
  }
  for (size_t j = 0; j < d; ++j) {
    const double base = a[largest * d + j];
    const double split = a[(k - 1) * d + j];
    // The empty cluster took the largest's mean pushed the other way.
    EXPECT_NEAR(split * (j % 2 == 0 ? 1 - 1.0 / 1024 : 1 + 1.0 / 1024),
                base * (j % 2 == 0 ? 1 + 1.0 / 1024 : 1 - 1.0 / 1024), 1e-5);
  }
}

// Blobs, plus rows at the normalised midpoint of two blob rows (near ties between the
// centroids that settle around the blobs), divided between 1..8 ranks by a hash of the key
// (with 3 ranks, rank 0 gets nothing): every rank gets the one-process fit, bit for bit.
TEST(KMeans, TheFitDividedBetweenRanksIsTheOneProcessFit) {
  std::vector<int> truth;
  const size_t d = 16, k = 9;
  auto x = blobs(6, 150, d, truth);
  const size_t blob_rows = x.size() / d;
  for (size_t i = 0; i + 1 < blob_rows && i < 300; i += 2) {
    double norm = 0;
    std::vector<float> mid(d);
    for (size_t j = 0; j < d; ++j) {
      mid[j] = x[i * d + j] + x[(i + 1) * d + j];
      norm += double{mid[j]} * mid[j];
    }
    for (float v : mid) x.push_back(static_cast<float>(v / std::sqrt(norm)));
  }
  const size_t n = x.size() / d;
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = i * 0x9E3779B97F4A7C15ull + 7;
  for (size_t cap : {size_t{1000}, size_t{40}}) {
    KMeansOptions o;
    o.clusters = k;
    o.max_iter = 25;
    o.tol = 0;  // until nothing changes, so divergence anywhere would show
    o.max_points_per_centroid = cap;
    auto whole = train_kmeans(x.data(), keys.data(), n, d, o);
    ASSERT_TRUE(whole.is_ok());
    ASSERT_GT(whole->iterations, 3);
    for (int ranks = 1; ranks <= 8; ++ranks) {
      std::vector<std::vector<float>> rows(static_cast<size_t>(ranks));
      std::vector<std::vector<uint64_t>> rank_keys(static_cast<size_t>(ranks));
      for (size_t i = 0; i < n; ++i) {
        size_t r = hash_u64(keys[i], 99) % static_cast<uint64_t>(ranks);
        if (ranks == 3 && r == 0) r = 1 + i % 2;
        rows[r].insert(rows[r].end(), x.begin() + i * d, x.begin() + (i + 1) * d);
        rank_keys[r].push_back(keys[i]);
      }
      std::vector<Result<KMeansResult>> fits(static_cast<size_t>(ranks),
                                             Status::error("not run"));
      testing::ThreadComms comms(ranks);
      comms.run([&](dist::Comm& comm) {
        const size_t r = static_cast<size_t>(comm.rank());
        fits[r] = train_kmeans_divided(comm, rows[r].data(), rank_keys[r].data(),
                                       rank_keys[r].size(), d, o);
      });
      for (int r = 0; r < ranks; ++r) {
        const auto& fit = fits[static_cast<size_t>(r)];
        ASSERT_TRUE(fit.is_ok()) << fit.status().message();
        EXPECT_EQ(fit->centroids, whole->centroids) << ranks << " ranks, rank " << r;
        EXPECT_EQ(fit->objective, whole->objective) << ranks << " ranks, rank " << r;
        EXPECT_EQ(fit->iterations, whole->iterations);
        EXPECT_EQ(fit->trained_on, std::min(n, k * cap));
      }
    }
  }
}

// Too few points over all ranks is the same error on every rank.
TEST(KMeans, TheDividedFitFailsOnEveryRankTogether) {
  const size_t d = 4;
  std::vector<float> x(3 * d, 0.5f);
  std::vector<uint64_t> keys = {1, 2, 3};
  KMeansOptions o;
  o.clusters = 5;
  testing::ThreadComms comms(2);
  std::vector<std::string> errors(2);
  comms.run([&](dist::Comm& comm) {
    const size_t own = comm.rank() == 0 ? 1 : 2;
    const size_t first = comm.rank() == 0 ? 0 : 1;
    auto fit = train_kmeans_divided(comm, x.data() + first * d, keys.data() + first, own, d, o);
    errors[static_cast<size_t>(comm.rank())] = fit.is_ok() ? "" : fit.status().message();
  });
  EXPECT_EQ(errors[0], "k-means: 3 points cannot make 5 clusters");
  EXPECT_EQ(errors[1], errors[0]);
}

}  // namespace
}  // namespace winnow
