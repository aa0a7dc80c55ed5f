#include "dedup/prune_tile.h"

#include <algorithm>

#include "dedup/blas_gemm.h"
#include "dedup/double_products.h"

namespace winnow {

namespace {

// max(0, values[0..n)), in eight independent lanes so the compiler vectorises it (a single
// running maximum is a dependency chain it may not reorder). A maximum has no rounding, so
// taking it a tile at a time gives the value one pass over the row would.
float max_of(const float* values, size_t n) {
  float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int k = 0; k < 8; ++k) lane[k] = lane[k] > values[i + k] ? lane[k] : values[i + k];
  }
  for (; i < n; ++i) lane[0] = lane[0] > values[i] ? lane[0] : values[i];
  float best = 0.0f;
  for (float v : lane) best = best > v ? best : v;
  return best;
}

}  // namespace

PruneTile::PruneTile(size_t c0, size_t c1, const float* rows, size_t d, const PruneOptions& options,
                     PruneResult& out)
    : c0_(c0),
      c1_(c1),
      rows_(rows),
      d_(d),
      options_(options),
      levels_(options.thresholds.size()),
      out_(out) {
  lowest_ =
      levels_ == 0 ? 2.0 : *std::min_element(options.thresholds.begin(), options.thresholds.end());
  const size_t slots = (c1 - c0) * (options.keep_one_per_group ? levels_ : 1);
  // The double sums' own rounding (about d * 2^-53) is far inside the slack.
  error_ = float_product_error(d) + 1e-9;
  norms_.resize(c1 - c0);
  for (size_t j = c0; j < c1; ++j) norms_[j - c0] = length_in_double(rows + (j - c0) * d, d);
  lower_.assign(slots, 0.0);
  exact_.assign(slots, 0.0);
  exact_row_.assign(slots, kNone);
  best_.assign(slots, 0.0f);
  best_row_.resize(slots);
  for (size_t s = 0; s < slots; ++s) {
    best_row_[s] = static_cast<uint32_t>(c0 + (options.keep_one_per_group ? s / levels_ : s));
  }
}

void PruneTile::absorb(const float* rows, size_t r0, size_t r1, std::vector<float>& products) {
  const size_t m = c1_ - c0_, n = r1 - r0;
  // Row j - c0 holds row j's similarity to rows r0 .. r1-1.
  products.resize(m * n);
  gemm_abt(m, n, d_, rows_, d_, rows, d_, products.data(), n);
  other_norms_.resize(n);
  other_longest_ = 0;
  for (size_t i = 0; i < n; ++i) {
    other_norms_[i] = length_in_double(rows + i * d_, d_);
    other_longest_ = std::max(other_longest_, other_norms_[i]);
  }
  const bool diagonal = r0 == c0_;
  if (options_.keep_one_per_group) {
    absorb_kept(products.data(), rows, r0, r1, diagonal);
  } else {
    absorb_max(products.data(), rows, r0, r1, diagonal);
    if (diagonal) decide_max();
  }
}

void PruneTile::track_exact(size_t j, size_t slot, const float* similarity, size_t r0,
                            size_t count, const float* rows, double threshold,
                            const auto& eligible) {
  const double row_error = error_ * norms_[j - c0_];
  double& lower = lower_[slot];
  // The rows' own bound first: the tile's best minus the largest error any of its rows has.
  float top = 0.0f;
  for (size_t i = 0; i < count; ++i) {
    if (eligible(r0 + i) && similarity[i] > top) top = similarity[i];
  }
  lower = std::max(lower, double{top} - row_error * other_longest_);
  const double floor = std::max(lower, threshold);
  if (double{top} + row_error * other_longest_ < floor) return;
  const float* row_j = rows_ + (j - c0_) * d_;
  for (size_t i = 0; i < count; ++i) {
    if (!eligible(r0 + i) || !(similarity[i] + row_error * other_norms_[i] >= floor)) continue;
    const double e = dot_in_double(row_j, rows + i * d_, d_);
    // Strictly greater: rows come in ascending order, so the first of equals stays.
    if (exact_row_[slot] == kNone || e > exact_[slot]) {
      exact_[slot] = e;
      exact_row_[slot] = static_cast<uint32_t>(r0 + i);
    }
  }
}

bool PruneTile::exact_reaches(size_t slot, double threshold) const {
  return exact_row_[slot] != kNone && exact_[slot] >= threshold;
}

void PruneTile::absorb_max(const float* products, const float* rows, size_t r0, size_t r1,
                           bool diagonal) {
  const size_t width = r1 - r0;
  for (size_t j = c0_; j < c1_; ++j) {
    const float* similarity = products + (j - c0_) * width;
    const size_t count = diagonal ? j - r0 : width;  // only rows before j
    const float best = max_of(similarity, count);
    float& kept = best_[j - c0_];
    // Strictly greater: on equal maxima the earlier tile's (earlier) row stays the match.
    if (best > kept) {
      kept = best;
      // The matched row matters only for removed items: look for it only then.
      if (best > 0.0f && static_cast<double>(best) >= lowest_) {
        best_row_[j - c0_] = static_cast<uint32_t>(
            r0 + (std::find(similarity, similarity + count, best) - similarity));
      } else {
        best_row_[j - c0_] = static_cast<uint32_t>(j);
      }
    }
    if (best + error_ * norms_[j - c0_] * other_longest_ >= lowest_) {
      track_exact(j, j - c0_, similarity, r0, count, rows, lowest_, [](size_t) { return true; });
    }
  }
}

void PruneTile::decide_max() {
  for (size_t j = c0_; j < c1_; ++j) {
    const size_t slot = j - c0_;
    // A row whose exact best reaches the lowest threshold: decided on that double value. Any
    // other is below every threshold above 0 (its float maximum stays, for the record).
    const bool exact = exact_reaches(slot, lowest_);
    const double best = exact ? exact_[slot] : 0.0;
    out_.max_similarity[j] = exact ? static_cast<float>(best) : best_[slot];
    out_.matched[j] = exact ? exact_row_[slot] : best_row_[slot];
    uint32_t bits = 0;
    for (size_t t = 0; t < levels_; ++t) {
      if (best >= options_.thresholds[t]) bits |= uint32_t{1} << t;
    }
    out_.removed[j] = bits;
  }
}

// Greedy: per threshold, only rows still kept at that threshold can remove a row. Rows are
// scanned in ascending order with a strict comparison, so the match is the first of equals;
// each level's decision is taken on the exact best (track_exact), so the kept rows, and with
// them every later decision, are the same whatever computed the products.
void PruneTile::absorb_kept(const float* products, const float* rows, size_t r0, size_t r1,
                            bool diagonal) {
  const size_t width = r1 - r0;
  for (size_t j = c0_; j < c1_; ++j) {
    const float* similarity = products + (j - c0_) * width;
    const size_t end = diagonal ? j : r1;
    uint32_t bits = 0;
    for (size_t t = 0; t < levels_; ++t) {
      const uint32_t mask = uint32_t{1} << t;
      const size_t slot = (j - c0_) * levels_ + t;
      float& best = best_[slot];
      uint32_t& best_row = best_row_[slot];
      auto kept = [&](size_t i) { return !(out_.removed[i] & mask); };
      for (size_t i = r0; i < end; ++i) {
        if (kept(i) && similarity[i - r0] > best) {
          best = similarity[i - r0], best_row = static_cast<uint32_t>(i);
        }
      }
      track_exact(j, slot, similarity, r0, end - r0, rows, options_.thresholds[t], kept);
      if (exact_reaches(slot, options_.thresholds[t])) bits |= mask;
    }
    if (!diagonal) continue;
    // Row j's decision is final: later rows of this tile read it.
    out_.removed[j] = bits;
    if (levels_ > 0) {
      const size_t slot = (j - c0_) * levels_;
      const bool exact = exact_reaches(slot, options_.thresholds[0]);
      out_.max_similarity[j] = exact ? static_cast<float>(exact_[slot]) : best_[slot];
      out_.matched[j] = exact ? exact_row_[slot] : best_row_[slot];
    } else {
      out_.matched[j] = static_cast<uint32_t>(j);
    }
  }
}

}  // namespace winnow
