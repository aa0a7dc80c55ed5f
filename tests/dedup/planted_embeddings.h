#pragma once
// Seeded random embeddings with planted near-copies at exactly known cosines, for the semantic
// dedup tests (step and command line).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace winnow::testing {

struct Planted {
  std::vector<std::vector<float>> rows;
  std::vector<std::pair<size_t, size_t>> pairs;  // (copy, original)
  std::vector<double> cosines;                   // of each pair
};

inline std::vector<double> unit(std::vector<double> v) {
  double n = 0;
  for (double x : v) n += x * x;
  for (double& x : v) x /= std::sqrt(n);
  return v;
}

// `base` random directions (not unit length: normalising is the step's job), then copies of
// random base rows at the given cosines (built exactly: cos * u + sin * w, w orthogonal to u).
inline Planted plant(size_t base, size_t d, const std::vector<double>& cosines, size_t copies_each,
                     unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Planted p;
  std::vector<std::vector<double>> units;
  for (size_t i = 0; i < base; ++i) {
    std::vector<double> v(d);
    for (double& x : v) x = normal(rng);
    units.push_back(unit(v));
    std::vector<float> row(d);
    double scale = 0.5 + (rng() % 100) / 50.0;
    for (size_t j = 0; j < d; ++j) row[j] = static_cast<float>(v[j] * scale);
    p.rows.push_back(row);
  }
  for (double c : cosines) {
    for (size_t k = 0; k < copies_each; ++k) {
      size_t from = rng() % base;
      const auto& u = units[from];
      std::vector<double> w(d);
      for (double& x : w) x = normal(rng);
      double dot = 0;
      for (size_t j = 0; j < d; ++j) dot += w[j] * u[j];
      for (size_t j = 0; j < d; ++j) w[j] -= dot * u[j];
      w = unit(w);
      std::vector<float> row(d);
      double s = std::sqrt(std::max(0.0, 1 - c * c));
      for (size_t j = 0; j < d; ++j) row[j] = static_cast<float>(c * u[j] + s * w[j]);
      if (c >= 1.0) row = p.rows[from];  // an exact copy: the same floats, as in real data
      p.pairs.emplace_back(p.rows.size(), from);
      p.cosines.push_back(c);
      p.rows.push_back(row);
    }
  }
  // Shuffle so copies are not all after their originals in key order.
  std::vector<size_t> order(p.rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<size_t> where(order.size());
  std::vector<std::vector<float>> shuffled;
  for (size_t i = 0; i < order.size(); ++i) {
    where[order[i]] = i;
    shuffled.push_back(p.rows[order[i]]);
  }
  p.rows = shuffled;
  for (auto& [a, b] : p.pairs) a = where[a], b = where[b];
  return p;
}

// The embedding as the JSON array a record holds (shortest round-trip floats).
inline std::string embedding_json(const std::vector<float>& row) {
  std::string r = "[";
  for (size_t j = 0; j < row.size(); ++j) r += fmt::format("{}{}", j ? "," : "", row[j]);
  return r + "]";
}

}  // namespace winnow::testing
