#include "dedup/union_find.h"

#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <random>

namespace winnow {
namespace {

// Components from a plain sequential union-find, each labelled by its smallest member.
std::vector<uint32_t> reference_components(size_t n,
                                           const std::vector<std::pair<uint32_t, uint32_t>>& e) {
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::function<uint32_t(uint32_t)> find = [&](uint32_t x) {
    return parent[x] == x ? x : parent[x] = find(parent[x]);
  };
  for (auto [a, b] : e) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<uint32_t> label(n);
  for (uint32_t i = 0; i < n; ++i) label[i] = find(i);
  return label;
}

TEST(ConcurrentUnionFind, MatchesSequentialAndRootIsSmallestForAnyThreadCount) {
  std::mt19937 rng(3);
  for (size_t n : {1u, 2u, 10u, 1000u, 50000u}) {
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (size_t i = 0; i < n * 0.8; ++i) edges.emplace_back(rng() % n, rng() % n);
    // A long chain, the worst case for unbalanced linking.
    for (uint32_t i = 1; i < n / 3; ++i) edges.emplace_back(n - i, n - i - 1);
    std::vector<uint32_t> expected = reference_components(n, edges);
    for (int threads : {1, 2, 4, 8}) {
      ConcurrentUnionFind uf(n);
      uf.unite_all(edges, threads);
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(uf.find(i), expected[i]) << "n=" << n << " threads=" << threads << " i=" << i;
      }
    }
  }
}

}  // namespace
}  // namespace winnow
