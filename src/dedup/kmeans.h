#pragma once
// K-means on faiss (faiss::Clustering), seeded and deterministic for any thread count.
//
// faiss's own assignment index (IndexFlat) lets OpenBLAS and OpenMP split its products by
// thread count; here the assignment runs on an index of ours that multiplies fixed blocks of
// rows on single-threaded BLAS (dedup/blas_gemm.h) and picks the nearest centroid with ties
// to the smaller index. faiss's centroid update gives each thread whole centroids and adds
// points in input order, so it is the same for any OpenMP thread count. Spherical k-means
// normalises the centroids after each update and assigns by inner product.
//
// faiss fits on at most max_points_per_centroid x k points (a seeded sample): that cap is an
// explicit option here, reported by the caller, never silent.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/status.h"

namespace winnow {

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

// Fits on `n` rows of `x` (n x d). Requires n >= options.clusters >= 1.
Result<KMeansResult> train_kmeans(const float* x, size_t n, size_t d, const KMeansOptions& options);

// The nearest centroid of each row: highest inner product (inner_product) or smallest squared
// L2 distance, ties to the smaller centroid index; `score` gets that inner product or distance.
// Decided as exact arithmetic would, whatever BLAS computed the float products: centroids within
// the float error of the best are compared again in double (kmeans_assign.cpp), and the score is
// the double value rounded to float. So labels and scores do not depend on the BLAS, its
// blocking or the thread count, and a GPU's products can be settled the same way.
void assign_nearest(const float* x, size_t n, size_t d, const float* centroids, size_t k,
                    bool inner_product, int threads, int64_t* labels, float* score);

}  // namespace winnow
