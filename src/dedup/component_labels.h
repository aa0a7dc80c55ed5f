#pragma once
// Connected components across ranks: every vertex (a DocKey) lives in one of a fixed number of
// partitions (by a hash of the key, so the partition does not depend on the rank count), and
// partition p belongs to rank p % ranks. label_components() gives each rank the component
// label (the smallest key of the component) of the vertices it owns, by FastSV (Zhang, Azad
// and Hu, 2020: min-label propagation with stochastic and aggressive hooking and pointer
// jumping), in rounds of all-to-all exchanges until a sum over ranks says no parent changed.
// Every update is a minimum, so the result does not depend on the order anything arrives in,
// nor on the rank count. Keys are 64 bits throughout: no limit on the number of vertices.
//
// One round, each rank for its own vertices v (f = parent, initially v itself):
//   gf[v] = f[f[v]]                      (a request to the owner of f[v] and its answer)
//   cand[u] = min gf[v] over edges (v,u)  (pushed to the owner of u)
//   f[f[u]] <- min(f[f[u]], cand[u])      (stochastic hooking, at the owner of f[u])
//   f[u] <- min(f[u], cand[u], gf[u])     (aggressive hooking and shortcutting)
// At the fixed point every tree is a star whose root is the component's smallest key.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/status.h"
#include "dist/comm.h"

namespace winnow {

class VertexOwners {
 public:
  VertexOwners(uint32_t partitions, int ranks)
      : partitions_(partitions == 0 ? 1 : partitions), ranks_(ranks < 1 ? 1 : ranks) {}
  uint32_t partition(uint64_t key) const;
  int owner(uint64_t key) const { return static_cast<int>(partition(key) % static_cast<uint32_t>(ranks_)); }
  uint32_t partitions() const { return partitions_; }
  int ranks() const { return ranks_; }

 private:
  uint32_t partitions_;
  int ranks_;
};

struct ComponentLabels {
  std::vector<uint64_t> vertices;  // this rank's, sorted: every vertex of an edge it owns
  std::vector<uint64_t> labels;    // of each: the smallest key of its component
  uint64_t rounds = 0;             // of propagation, the same on every rank
  // The label of an owned `vertex`; nullptr when it is not one of this rank's.
  const uint64_t* label_of(uint64_t vertex) const;
};

// Collective. `edges`: this rank's share of the graph (either way round, repeats allowed;
// emptied); every rank's together are the graph.
Result<ComponentLabels> label_components(dist::Comm& comm, const VertexOwners& owners,
                                         std::vector<std::pair<uint64_t, uint64_t>>& edges);

// The links of one rank collapsed to stars: for each connected component of `links`, an edge
// from its smallest key to each other member. Fewer edges, the same components.
std::vector<std::pair<uint64_t, uint64_t>> collapse_to_stars(
    std::vector<std::pair<uint64_t, uint64_t>> links);

}  // namespace winnow
