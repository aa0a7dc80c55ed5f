#include "dedup/component_labels.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/hash.h"
#include "dist/record_exchange.h"

namespace winnow {

namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

using KeyValue = std::pair<uint64_t, uint64_t>;

// Sorts by key and keeps the least value of each key.
void keep_minimum(std::vector<KeyValue>& pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end(),
                          [](const KeyValue& a, const KeyValue& b) { return a.first == b.first; }),
              pairs.end());
}

size_t index_in(const std::vector<uint64_t>& sorted, uint64_t key) {
  return static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), key) - sorted.begin());
}

class Propagation {
 public:
  Propagation(dist::Comm& comm, const VertexOwners& owners) : comm_(comm), owners_(owners) {}

  // Each edge goes to the owners of both its ends, as (own end, other end).
  Status distribute(std::vector<std::pair<uint64_t, uint64_t>>& edges) {
    std::vector<std::vector<KeyValue>> out(static_cast<size_t>(comm_.size()));
    for (const auto& [a, b] : edges) {
      if (a == b) continue;
      out[static_cast<size_t>(owners_.owner(a))].emplace_back(a, b);
      out[static_cast<size_t>(owners_.owner(b))].emplace_back(b, a);
    }
    std::vector<std::pair<uint64_t, uint64_t>>().swap(edges);
    bool whole = true;
    adjacency_ = dist::exchange_records(comm_, out, &whole);
    if (!whole) return Status::error("dedup components: edges arrived cut short");
    std::sort(adjacency_.begin(), adjacency_.end());
    adjacency_.erase(std::unique(adjacency_.begin(), adjacency_.end()), adjacency_.end());
    vertices_.reserve(adjacency_.size());
    for (const auto& [v, u] : adjacency_) {
      if (vertices_.empty() || vertices_.back() != v) vertices_.push_back(v);
    }
    parent_ = vertices_;
    return Status::ok();
  }

  // One round; returns how many of this rank's parents changed.
  Result<uint64_t> round() {
    std::vector<uint64_t> grandparent;
    WINNOW_RETURN_IF_ERROR(grandparents(grandparent));
    // cand[u] = min gf[v] over u's neighbours v, gathered at u's owner.
    std::vector<std::vector<KeyValue>> pushes(static_cast<size_t>(comm_.size()));
    size_t v = 0;
    for (const auto& [from, to] : adjacency_) {
      while (vertices_[v] != from) ++v;
      pushes[static_cast<size_t>(owners_.owner(to))].emplace_back(to, grandparent[v]);
    }
    for (auto& p : pushes) keep_minimum(p);
    bool whole = true;
    std::vector<KeyValue> received = dist::exchange_records(comm_, pushes, &whole);
    std::vector<uint64_t> candidate(vertices_.size(), kNone);
    for (const auto& [key, value] : received) {
      uint64_t& c = candidate[index_in(vertices_, key)];
      c = std::min(c, value);
    }
    // Stochastic hooking at the owner of f[u]; aggressive hooking and shortcutting here.
    std::vector<std::vector<KeyValue>> hooks(static_cast<size_t>(comm_.size()));
    std::vector<uint64_t> next(vertices_.size());
    for (size_t i = 0; i < vertices_.size(); ++i) {
      next[i] = std::min({parent_[i], candidate[i], grandparent[i]});
      if (candidate[i] < parent_[i]) {
        hooks[static_cast<size_t>(owners_.owner(parent_[i]))].emplace_back(parent_[i],
                                                                             candidate[i]);
      }
    }
    for (auto& h : hooks) keep_minimum(h);
    for (const auto& [key, value] : dist::exchange_records(comm_, hooks, &whole)) {
      uint64_t& n = next[index_in(vertices_, key)];
      n = std::min(n, value);
    }
    if (!whole) return Status::error("dedup components: labels arrived cut short");
    uint64_t changed = 0;
    for (size_t i = 0; i < vertices_.size(); ++i) changed += next[i] != parent_[i];
    parent_ = std::move(next);
    return changed;
  }

  ComponentLabels take() {
    ComponentLabels labels;
    labels.vertices = std::move(vertices_);
    labels.labels = std::move(parent_);
    return labels;
  }

 private:
  // gf[v] = f[f[v]]: each rank asks the owners of its vertices' parents.
  Status grandparents(std::vector<uint64_t>& grandparent) {
    const size_t ranks = static_cast<size_t>(comm_.size());
    std::vector<std::vector<uint64_t>> asks(ranks);
    for (uint64_t p : parent_) asks[static_cast<size_t>(owners_.owner(p))].push_back(p);
    for (auto& a : asks) {
      std::sort(a.begin(), a.end());
      a.erase(std::unique(a.begin(), a.end()), a.end());
    }
    std::vector<std::vector<uint64_t>> asked = asks;  // kept to read the answers
    bool whole = true;
    std::vector<std::string> outgoing(ranks);
    for (size_t d = 0; d < ranks; ++d) {
      outgoing[d].assign(reinterpret_cast<const char*>(asks[d].data()),
                         asks[d].size() * sizeof(uint64_t));
    }
    std::vector<std::string> questions = comm_.all_to_all(std::move(outgoing));
    std::vector<std::string> answers(ranks);
    for (size_t s = 0; s < ranks; ++s) {
      const size_t n = questions[s].size() / sizeof(uint64_t);
      whole &= questions[s].size() % sizeof(uint64_t) == 0;
      answers[s].resize(n * sizeof(uint64_t));
      for (size_t k = 0; k < n; ++k) {
        uint64_t key;
        std::memcpy(&key, questions[s].data() + k * sizeof key, sizeof key);
        const size_t i = index_in(vertices_, key);
        const uint64_t value = i < vertices_.size() && vertices_[i] == key ? parent_[i] : kNone;
        std::memcpy(answers[s].data() + k * sizeof value, &value, sizeof value);
      }
    }
    std::vector<std::string> replies = comm_.all_to_all(std::move(answers));
    grandparent.resize(vertices_.size());
    for (size_t i = 0; i < vertices_.size(); ++i) {
      const size_t d = static_cast<size_t>(owners_.owner(parent_[i]));
      const size_t k = index_in(asked[d], parent_[i]);
      if ((k + 1) * sizeof(uint64_t) > replies[d].size()) {
        whole = false;
        grandparent[i] = parent_[i];
        continue;
      }
      std::memcpy(&grandparent[i], replies[d].data() + k * sizeof(uint64_t), sizeof(uint64_t));
      if (grandparent[i] == kNone) {
        return Status::errorf("dedup components: vertex {} has no owner's record", parent_[i]);
      }
    }
    return whole ? Status::ok() : Status::error("dedup components: answers arrived cut short");
  }

  dist::Comm& comm_;
  const VertexOwners& owners_;
  std::vector<KeyValue> adjacency_;  // (own vertex, neighbour), sorted
  std::vector<uint64_t> vertices_;   // own, sorted
  std::vector<uint64_t> parent_;
};

}  // namespace

uint32_t VertexOwners::partition(uint64_t key) const {
  return static_cast<uint32_t>(hash_u64(key, 0x7e47e800u) % partitions_);
}

const uint64_t* ComponentLabels::label_of(uint64_t vertex) const {
  auto it = std::lower_bound(vertices.begin(), vertices.end(), vertex);
  if (it == vertices.end() || *it != vertex) return nullptr;
  return &labels[static_cast<size_t>(it - vertices.begin())];
}

Result<ComponentLabels> label_components(dist::Comm& comm, const VertexOwners& owners,
                                         std::vector<std::pair<uint64_t, uint64_t>>& edges) {
  Propagation propagation(comm, owners);
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, propagation.distribute(edges)));
  uint64_t rounds = 0;
  while (true) {
    auto changed = propagation.round();
    Status status = dist::agree(comm, changed.status());
    if (!status.is_ok()) return status;
    ++rounds;
    if (dist::sum_over_ranks(comm, {*changed})[0] == 0) break;
  }
  ComponentLabels labels = propagation.take();
  labels.rounds = rounds;
  return labels;
}

std::vector<std::pair<uint64_t, uint64_t>> collapse_to_stars(
    std::vector<std::pair<uint64_t, uint64_t>> links) {
  std::vector<uint64_t> keys;
  keys.reserve(links.size() * 2);
  for (const auto& [a, b] : links) {
    keys.push_back(a);
    keys.push_back(b);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  // Union-find over 64-bit indices, the smaller root kept: each root is its smallest key.
  std::vector<size_t> parent(keys.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& [a, b] : links) {
    size_t x = find(index_in(keys, a)), y = find(index_in(keys, b));
    if (x == y) continue;
    if (x > y) std::swap(x, y);
    parent[y] = x;
  }
  std::vector<std::pair<uint64_t, uint64_t>>().swap(links);
  std::vector<std::pair<uint64_t, uint64_t>> stars;
  for (size_t i = 0; i < keys.size(); ++i) {
    const size_t root = find(i);
    if (root != i) stars.emplace_back(keys[root], keys[i]);
  }
  return stars;
}

}  // namespace winnow
