// Connected components across ranks (threads standing in for MPI processes): the labels are
// the components' smallest keys, the same for 1 to 8 ranks and any partition count, checked
// against a one-process union-find; a chain needs O(log length) rounds.
#include "dedup/component_labels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>

#include "dist/thread_comm.h"

namespace winnow {
namespace {

using Edges = std::vector<std::pair<uint64_t, uint64_t>>;

// Vertex -> smallest key of its component, by a plain union-find.
std::map<uint64_t, uint64_t> expected_labels(const Edges& edges) {
  std::map<uint64_t, uint64_t> parent;
  std::function<uint64_t(uint64_t)> find = [&](uint64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& [a, b] : edges) {
    parent.emplace(a, a);
    parent.emplace(b, b);
    uint64_t x = find(a), y = find(b);
    if (x > y) std::swap(x, y);
    parent[y] = x;
  }
  std::map<uint64_t, uint64_t> labels;
  for (auto& [v, p] : parent) labels[v] = find(v);
  return labels;
}

// Every rank's labels, merged (each vertex owned by exactly one rank); the rounds.
std::map<uint64_t, uint64_t> across_ranks(const Edges& edges, int ranks, uint32_t partitions,
                                          uint64_t* rounds = nullptr) {
  testing::ThreadComms comms(ranks);
  std::vector<ComponentLabels> labels(static_cast<size_t>(ranks));
  comms.run([&](dist::Comm& comm) {
    Edges mine;  // edges dealt out round-robin: each rank a share of the graph
    for (size_t i = static_cast<size_t>(comm.rank()); i < edges.size(); i += static_cast<size_t>(ranks)) {
      mine.push_back(edges[i]);
    }
    auto result = label_components(comm, VertexOwners(partitions, ranks), mine);
    ASSERT_TRUE(result.is_ok()) << result.status().message();
    labels[static_cast<size_t>(comm.rank())] = std::move(result).value();
  });
  std::map<uint64_t, uint64_t> merged;
  for (const ComponentLabels& l : labels) {
    EXPECT_EQ(l.rounds, labels[0].rounds);
    for (size_t i = 0; i < l.vertices.size(); ++i) {
      EXPECT_TRUE(merged.emplace(l.vertices[i], l.labels[i]).second) << "owned twice";
    }
  }
  if (rounds) *rounds = labels[0].rounds;
  return merged;
}

Edges random_graph(size_t vertices, size_t edges, unsigned seed) {
  std::mt19937_64 rng(seed);
  Edges out;
  for (size_t i = 0; i < edges; ++i) {
    // Keys spread over the 64-bit range, above 2^32 included.
    out.emplace_back((rng() % vertices) * 0x9E3779B97F4Bull, (rng() % vertices) * 0x9E3779B97F4Bull);
  }
  return out;
}

TEST(ComponentLabels, SmallestKeyOfEachComponentForAnyRankAndPartitionCount) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const Edges edges = random_graph(3000, 2400, seed);  // many components, some large
    std::map<uint64_t, uint64_t> expected = expected_labels(edges);
    // A vertex linked only to itself has no edge to propagate over.
    std::erase_if(expected, [&](const auto& e) {
      return std::none_of(edges.begin(), edges.end(), [&](const auto& edge) {
        return edge.first != edge.second && (edge.first == e.first || edge.second == e.first);
      });
    });
    for (int ranks = 1; ranks <= 8; ++ranks) {
      for (uint32_t partitions : {1u, 7u, 64u}) {
        EXPECT_EQ(across_ranks(edges, ranks, partitions), expected)
            << ranks << " ranks, " << partitions << " partitions, seed " << seed;
      }
    }
  }
}

// A chain of 20,000 keys in a random order along it (the worst case for plain min-label
// propagation, which needs as many rounds as the chain is long): FastSV's pointer jumping
// needs about log2(length), well within 2 log2(length) + 4.
TEST(ComponentLabels, AChainTakesLogarithmicRounds) {
  const size_t length = 20000;
  std::vector<uint64_t> keys(length);
  std::iota(keys.begin(), keys.end(), uint64_t{1} << 40);
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(9));
  Edges chain;
  for (size_t i = 0; i + 1 < length; ++i) chain.emplace_back(keys[i], keys[i + 1]);
  for (int ranks : {1, 3}) {
    uint64_t rounds = 0;
    const auto labels = across_ranks(chain, ranks, 64, &rounds);
    ASSERT_EQ(labels.size(), length);
    for (const auto& [v, l] : labels) ASSERT_EQ(l, uint64_t{1} << 40);
    EXPECT_LE(rounds, 2 * std::log2(static_cast<double>(length)) + 4) << ranks << " ranks";
    std::cout << "  chain of " << length << " on " << ranks << " ranks: " << rounds << " rounds\n";
  }
}

TEST(ComponentLabels, CollapseToStarsKeepsTheComponents) {
  const Edges edges = random_graph(500, 400, 4);
  const Edges stars = collapse_to_stars(edges);
  EXPECT_LT(stars.size(), edges.size());
  std::map<uint64_t, uint64_t> expected = expected_labels(edges);
  std::map<uint64_t, uint64_t> got = expected_labels(stars);
  // Self-links give no star edge; their vertex is alone.
  std::erase_if(expected, [&](const auto& e) { return !got.count(e.first) && e.second == e.first; });
  EXPECT_EQ(got, expected);
  for (const auto& [root, v] : stars) EXPECT_EQ(got.at(v), root);
}

}  // namespace
}  // namespace winnow
