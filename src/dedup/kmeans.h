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

}  // namespace winnow
