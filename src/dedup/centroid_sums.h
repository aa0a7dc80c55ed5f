#pragma once
// CentroidSums: k-means' centroid update in fixed point. Each row's components are scaled by a
// power of two and rounded to integers, and summed per cluster in 128-bit integers, with the
// objective the same way: integer sums are exact, so they do not depend on the order rows are
// added in, on the thread that added them or on how rows are divided between processes
// (merge() adds two partial sums exactly). The centroids made from them are then the same
// bits however the work was divided: the property a k-means across ranks needs, each rank
// summing its own rows (issue 32, item 2).
//
// Rounding: components are kept to 2^-40 of the largest magnitude in the data; centroids are
// the double means of those, rounded to float.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

// The power of two that takes the largest magnitude in the data to at most 2^40. Across
// processes, agree on the largest magnitude first (a maximum, exact in any order).
struct CentroidScale {
  int exponent = 0;  // components are multiplied by 2^exponent
};
CentroidScale centroid_scale(const float* x, size_t count);
CentroidScale centroid_scale_for(float largest_magnitude);

class CentroidSums {
 public:
  CentroidSums(size_t k, size_t d, CentroidScale scale);

  // Rows `rows` (n x d) with their labels and assignment scores (similarity or distance).
  void add(const float* rows, size_t n, const int64_t* labels, const float* scores);
  // Adds another part's sums (same k, d and scale).
  void merge(const CentroidSums& other);
  // The sums as bytes, for another process to merge (k-means across ranks): the integers
  // travel as they are, so the merge there is as exact as merge().
  std::string bytes() const;
  // Adds sums sent as bytes() by a part with the same k, d and scale; false when `bytes` is
  // not of that size.
  bool merge_bytes(std::string_view bytes);

  // The sum of the scores (k-means' objective), from its exact fixed-point sum.
  double objective() const;
  const std::vector<uint64_t>& counts() const { return counts_; }

  // New centroids (k x d): each cluster's mean; an empty cluster takes half of the largest one
  // (its centroid perturbed by +-1/1024 in alternate components, the other half the opposite
  // way, as faiss splits clusters), then with `spherical` every centroid normalised.
  void update(std::vector<float>& centroids, bool spherical) const;

 private:
  size_t k_, d_;
  CentroidScale scale_;
  std::vector<__int128> sums_;  // k x d
  std::vector<uint64_t> counts_;
  __int128 objective_ = 0;  // scores x 2^32
};

}  // namespace winnow
