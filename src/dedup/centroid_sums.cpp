#include "dedup/centroid_sums.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace winnow {

namespace {

constexpr int kComponentBits = 40;
constexpr int kObjectiveExponent = 32;
constexpr double kSplitEpsilon = 1.0 / 1024;

// Exactly v x 2^exponent rounded to the nearest integer (ties to even): the product is exact
// in double (a power of two), the rounding the one IEEE rounding.
__int128 to_fixed(double v, int exponent) {
  return static_cast<__int128>(std::nearbyint(std::ldexp(v, exponent)));
}

}  // namespace

CentroidScale centroid_scale_for(float largest_magnitude) {
  CentroidScale scale;
  if (!(largest_magnitude > 0) || !std::isfinite(largest_magnitude)) return scale;
  int e = 0;
  std::frexp(largest_magnitude, &e);  // largest_magnitude < 2^e
  scale.exponent = kComponentBits - e;
  return scale;
}

CentroidScale centroid_scale(const float* x, size_t count) {
  float largest = 0;
  for (size_t i = 0; i < count; ++i) largest = std::max(largest, std::abs(x[i]));
  return centroid_scale_for(largest);
}

CentroidSums::CentroidSums(size_t k, size_t d, CentroidScale scale)
    : k_(k), d_(d), scale_(scale), sums_(k * d, 0), counts_(k, 0) {}

void CentroidSums::add(const float* rows, size_t n, const int64_t* labels, const float* scores) {
  for (size_t r = 0; r < n; ++r) {
    const size_t c = static_cast<size_t>(labels[r]);
    __int128* sum = sums_.data() + c * d_;
    const float* row = rows + r * d_;
    for (size_t j = 0; j < d_; ++j) sum[j] += to_fixed(row[j], scale_.exponent);
    ++counts_[c];
    if (scores && std::isfinite(scores[r])) objective_ += to_fixed(scores[r], kObjectiveExponent);
  }
}

void CentroidSums::merge(const CentroidSums& other) {
  for (size_t i = 0; i < sums_.size(); ++i) sums_[i] += other.sums_[i];
  for (size_t c = 0; c < k_; ++c) counts_[c] += other.counts_[c];
  objective_ += other.objective_;
}

std::string CentroidSums::bytes() const {
  std::string out(sums_.size() * sizeof(__int128) + counts_.size() * sizeof(uint64_t) +
                      sizeof(__int128),
                  '\0');
  char* at = out.data();
  std::memcpy(at, sums_.data(), sums_.size() * sizeof(__int128));
  at += sums_.size() * sizeof(__int128);
  std::memcpy(at, counts_.data(), counts_.size() * sizeof(uint64_t));
  at += counts_.size() * sizeof(uint64_t);
  std::memcpy(at, &objective_, sizeof(__int128));
  return out;
}

bool CentroidSums::merge_bytes(std::string_view bytes) {
  if (bytes.size() != sums_.size() * sizeof(__int128) + counts_.size() * sizeof(uint64_t) +
                          sizeof(__int128)) {
    return false;
  }
  const char* at = bytes.data();
  for (__int128& sum : sums_) {
    __int128 v;
    std::memcpy(&v, at, sizeof v);
    sum += v;
    at += sizeof v;
  }
  for (uint64_t& count : counts_) {
    uint64_t v;
    std::memcpy(&v, at, sizeof v);
    count += v;
    at += sizeof v;
  }
  __int128 v;
  std::memcpy(&v, at, sizeof v);
  objective_ += v;
  return true;
}

double CentroidSums::objective() const {
  return std::ldexp(static_cast<double>(objective_), -kObjectiveExponent);
}

void CentroidSums::update(std::vector<float>& centroids, bool spherical) const {
  centroids.resize(k_ * d_);
  std::vector<double> means(k_ * d_, 0);
  std::vector<uint64_t> counts = counts_;
  for (size_t c = 0; c < k_; ++c) {
    if (counts[c] == 0) continue;
    for (size_t j = 0; j < d_; ++j) {
      means[c * d_ + j] = std::ldexp(static_cast<double>(sums_[c * d_ + j]), -scale_.exponent) /
                          static_cast<double>(counts[c]);
    }
  }
  // Empty clusters, in index order, each split off the largest (ties: the smaller index).
  for (size_t c = 0; c < k_; ++c) {
    if (counts[c] != 0) continue;
    size_t largest = 0;
    for (size_t o = 1; o < k_; ++o) {
      if (counts[o] > counts[largest]) largest = o;
    }
    if (counts[largest] < 2) break;  // nothing left to split
    for (size_t j = 0; j < d_; ++j) {
      const double v = means[largest * d_ + j];
      const double up = v * (1 + kSplitEpsilon), down = v * (1 - kSplitEpsilon);
      means[c * d_ + j] = j % 2 == 0 ? up : down;
      means[largest * d_ + j] = j % 2 == 0 ? down : up;
    }
    counts[c] = counts[largest] / 2;
    counts[largest] -= counts[c];
  }
  for (size_t c = 0; c < k_; ++c) {
    double scale = 1;
    if (spherical) {
      double norm = 0;
      for (size_t j = 0; j < d_; ++j) norm += means[c * d_ + j] * means[c * d_ + j];
      if (norm > 0) scale = 1 / std::sqrt(norm);
    }
    // A cluster left empty (nothing to split) keeps its centroid.
    if (counts[c] == 0) continue;
    for (size_t j = 0; j < d_; ++j) centroids[c * d_ + j] = static_cast<float>(means[c * d_ + j] * scale);
  }
}

}  // namespace winnow
