#pragma once
// K-means (Lloyd's), seeded, whose result does not depend on the thread count, on the rows'
// order or on how they would be divided between processes:
//  - the training sample (at most max_points_per_centroid x k rows, an explicit option the
//    caller reports, never silent) and the initial centroids are the rows of smallest seeded
//    hash of their key, a choice each process can make for its own rows;
//  - the assignment is assign_nearest below: decided as exact arithmetic would (near ties
//    settled in double), on fixed blocks of single-threaded BLAS (dedup/blas_gemm.h);
//  - the centroid update sums in fixed point (dedup/centroid_sums.h), exact integers, so the
//    centroids are the same bits for any summation order; an empty cluster is split off the
//    largest, as faiss does. Spherical k-means normalises the centroids after each update and
//    assigns by inner product.
// bench/semantic_dedup_bench.cpp compares it with faiss's own k-means (time and objective).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/status.h"
#include "dedup/semantic_options.h"

namespace winnow {

namespace dist {
class Comm;
}

struct KMeansOptions {
  size_t clusters = 100;
  int max_iter = 300;
  double tol = 1e-4;  // stop when the objective changes by less than tol, relatively
  uint64_t seed = 42;
  bool spherical = true;
  size_t max_points_per_centroid = 256;
  int threads = 1;
  SemanticDevice device;  // where the assignments' products run (the same labels anywhere)
};

struct KMeansResult {
  size_t clusters = 0;
  std::vector<float> centroids;  // clusters x d
  int iterations = 0;
  std::vector<double> objective;  // per iteration (spherical: sum of cosines; else squared L2)
  size_t trained_on = 0;          // points the fit saw after the max_points_per_centroid cap
};

// Fits on `n` rows of `x` (n x d) whose keys are `keys` (the document keys; null: the row
// indices). Requires n >= options.clusters >= 1 and finite values.
Result<KMeansResult> train_kmeans(const float* x, const uint64_t* keys, size_t n, size_t d,
                                  const KMeansOptions& options);

// The same fit with the rows divided between the ranks of `comm` (collective): each rank
// passes its own `n` rows and their keys (keys required). The cap's sample and the initial
// centroids are the rows of smallest draw over all ranks (only the draws and the k candidate
// rows are gathered); each iteration assigns the rank's own rows and exchanges the exact
// fixed-point sums (dedup/centroid_sums.h). Every rank gets the result train_kmeans gives on
// all the rows in one process, bit for bit, for any rank count or division.
Result<KMeansResult> train_kmeans_divided(dist::Comm& comm, const float* x, const uint64_t* keys,
                                          size_t n, size_t d, const KMeansOptions& options);

// The nearest centroid of each row: highest inner product (inner_product) or smallest squared
// L2 distance, ties to the smaller centroid index; `score` gets that inner product or distance.
// Decided as exact arithmetic would, whatever BLAS computed the float products: centroids within
// the float error of the best are compared again in double (kmeans_assign.cpp), and the score is
// the double value rounded to float. So labels and scores do not depend on the BLAS, its
// blocking or the thread count, and a GPU's products can be settled the same way.
void assign_nearest(const float* x, size_t n, size_t d, const float* centroids, size_t k,
                    bool inner_product, int threads, int64_t* labels, float* score);

// assign_nearest's decision for one row (kmeans_assign.cpp), shared with the GPU assignment
// (dedup/semantic_device.cpp), so both settle near ties by the same rule.
class NearestCentroid {
 public:
  NearestCentroid(const float* centroids, size_t k, size_t d, bool inner_product);

  // Row `xr`'s float products with the k centroids as scores where higher is better (the
  // inner product, or the negated squared distance).
  void scores_from_products(const float* xr, const float* products, float* scores) const;
  // The label and score from those scores, near ties settled in double.
  void decide(const float* xr, const float* scores, int64_t& label, float& score) const;
  // The same from another device's best centroid, its score and the runner-up's score (in the
  // products' sense: inner products, or squared distances): the runner-up below the best by
  // more than the error bound settles it with one double product; else the row's products are
  // recomputed here and decide() takes it.
  void decide_from_top_two(const float* xr, int64_t best, float best_score, float second_score,
                           int64_t& label, float& score) const;

 private:
  double margin(const float* xr) const;
  double exact(const float* xr, size_t c) const;

  const float* centroids_;
  size_t k_, d_;
  bool inner_product_;
  double gamma_;
  double largest_norm_ = 0;
  std::vector<float> norms_;  // squared, float: the L2 form of the products
};

}  // namespace winnow
