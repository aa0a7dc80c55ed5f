#pragma once
// Products in double, summed in a fixed order, and the error bound of the float products they
// settle. Semantic dedup takes its decisions (the nearest centroid, the most similar earlier
// row, whether that reaches a threshold) on float products from a BLAS or a GPU, whose rounding
// depends on the library's blocking and the device. Whatever the order, a float dot product of
// length d is within gamma_d * |a| * |b| of the exact one (gamma_d = d u / (1 - d u), u = 2^-24;
// Cauchy-Schwarz bounds the sum of |a_j b_j|). A decision whose float inputs are within that
// bound of each other (or of a threshold) is taken again on these double values, which are the
// same bits on every machine: so the decisions are a function of the inputs alone
// (kmeans_assign.cpp, prune_tile.cpp, and the GPU paths in semantic_device.cpp).
#include <cmath>
#include <cstddef>

namespace winnow {

// gamma_d of a float dot product of length d (the +2 covers the L2 form's norms and sums).
inline double float_product_error(size_t d) {
  const double du = double(d + 2) * 0x1p-24;
  return du / (1 - du);
}

// Fixed-order double sums: the same value on every machine and for every blocking.
inline double dot_in_double(const float* a, const float* b, size_t d) {
  double s = 0;
  for (size_t j = 0; j < d; ++j) s += double{a[j]} * b[j];
  return s;
}
inline double distance_in_double(const float* a, const float* b, size_t d) {
  double s = 0;
  for (size_t j = 0; j < d; ++j) {
    double diff = double{a[j]} - b[j];
    s += diff * diff;
  }
  return s;
}
inline double length_in_double(const float* a, size_t d) { return std::sqrt(dot_in_double(a, a, d)); }

}  // namespace winnow
