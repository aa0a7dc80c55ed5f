#include "dedup/semantic_owners.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "dedup/byte_codec.h"

namespace winnow {

namespace {

// Clusters in the order they are given out: largest first, ties to the smaller index.
std::vector<uint32_t> largest_first(const std::vector<uint64_t>& sizes) {
  std::vector<uint32_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return sizes[a] > sizes[b]; });
  return order;
}

void put_outcome(BytePacker& out, const ItemOutcome& o) {
  out.put(o.key).put(o.cluster).put(o.similarity).put(o.removed).put(o.matched_key);
  out.put_bytes(o.id).put_bytes(o.matched_id).put_bytes(o.excerpt).put_bytes(o.matched_excerpt);
}

ItemOutcome get_outcome(ByteUnpacker& in) {
  ItemOutcome o;
  o.key = in.get<uint64_t>();
  o.cluster = in.get<uint32_t>();
  o.similarity = in.get<float>();
  o.removed = in.get<uint32_t>();
  o.matched_key = in.get<uint64_t>();
  o.id = in.get_bytes();
  o.matched_id = in.get_bytes();
  o.excerpt = in.get_bytes();
  o.matched_excerpt = in.get_bytes();
  return o;
}

// Outcomes sent to this rank, in key order.
Result<std::vector<ItemOutcome>> read_outcomes(const std::vector<std::string>& messages) {
  std::vector<ItemOutcome> out;
  for (const std::string& message : messages) {
    ByteUnpacker in(message);
    while (!in.done()) out.push_back(get_outcome(in));
    if (in.failed()) return Status::error("semantic dedup: a verdict message arrived cut short");
  }
  std::sort(out.begin(), out.end(),
            [](const ItemOutcome& a, const ItemOutcome& b) { return a.key < b.key; });
  return out;
}

// One cluster as received by its owner: members and rows in arrival order.
struct Arriving {
  std::vector<ClusterMember> members;
  std::vector<float> rows;
};

}  // namespace

std::vector<int> cluster_owners(const std::vector<uint64_t>& sizes, int ranks) {
  std::vector<int> owners(sizes.size(), 0);
  std::vector<uint64_t> load(static_cast<size_t>(std::max(ranks, 1)), 0);
  for (uint32_t c : largest_first(sizes)) {
    const size_t least = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    owners[c] = static_cast<int>(least);
    load[least] += sizes[c];
  }
  return owners;
}

std::vector<uint32_t> cluster_rounds(const std::vector<uint64_t>& sizes,
                                     const std::vector<int>& owners, size_t bytes_per_row,
                                     size_t round_bytes) {
  std::vector<uint32_t> rounds(sizes.size(), 0);
  std::map<int, std::pair<uint32_t, uint64_t>> at;  // owner -> (round, bytes in it)
  for (uint32_t c : largest_first(sizes)) {
    if (sizes[c] == 0) continue;
    const uint64_t bytes = sizes[c] * bytes_per_row;
    auto [it, fresh] = at.try_emplace(owners[c], 0u, 0u);
    auto& [round, used] = it->second;
    if (!fresh && used > 0 && used + bytes > round_bytes) {
      ++round;
      used = 0;
    }
    rounds[c] = round;
    used += bytes;
  }
  return rounds;
}

Result<OwnedClusters> send_clusters_to_owners(dist::Comm& comm, const SemanticClustering& clustering,
                                              const std::vector<SemanticItem>& items,
                                              const MappedMatrix& matrix, SemanticRanking ranking,
                                              size_t round_bytes, ClusterSpill& spill) {
  const size_t k = clustering.fit.clusters, d = matrix.dims();
  const int ranks = comm.size(), me = comm.rank();
  const std::vector<int> owners = cluster_owners(clustering.sizes, ranks);
  // Per member: cluster, key, rank value, id and excerpt with their lengths, the row.
  const size_t bytes_per_row = d * sizeof(float) + 64;
  const std::vector<uint32_t> round_of =
      cluster_rounds(clustering.sizes, owners, bytes_per_row, round_bytes);
  uint32_t rounds = 0;
  for (size_t c = 0; c < k; ++c) {
    if (clustering.sizes[c] > 0) rounds = std::max(rounds, round_of[c] + 1);
  }
  // This rank's rows of each cluster, in row (key) order.
  std::vector<std::vector<uint32_t>> rows_of(k);
  for (size_t r = 0; r < items.size(); ++r) {
    rows_of[static_cast<size_t>(clustering.labels[r])].push_back(static_cast<uint32_t>(r));
  }
  std::vector<std::vector<uint32_t>> clusters_in(rounds);
  for (uint32_t c = 0; c < k; ++c) {
    if (clustering.sizes[c] > 0) clusters_in[round_of[c]].push_back(c);
  }
  OwnedClusters owned;
  owned.rounds = rounds;
  Status failure;
  std::vector<ClusterMember> ranked;
  std::vector<uint32_t> order;
  for (uint32_t round = 0; round < rounds; ++round) {
    std::vector<std::string> outgoing(static_cast<size_t>(ranks));
    for (uint32_t c : clusters_in[round]) {
      std::string& message = outgoing[static_cast<size_t>(owners[c])];
      BytePacker out(message);
      for (uint32_t r : rows_of[c]) {
        const SemanticItem& item = items[r];
        out.put(c).put(item.key).put(item.rank_value).put_bytes(item.id).put_bytes(item.excerpt);
        out.put_raw(matrix.row(r), d * sizeof(float));
      }
      std::vector<uint32_t>().swap(rows_of[c]);
    }
    std::vector<std::string> incoming = comm.all_to_all(std::move(outgoing));
    // A failure here is agreed on after the last round (every rank still takes part in each),
    // so a round costs one exchange and no extra meeting of the ranks.
    std::map<uint32_t, Arriving> arriving;
    uint64_t received = 0;
    for (size_t from = 0; failure.is_ok() && from < incoming.size(); ++from) {
      ByteUnpacker in(incoming[from]);
      while (!in.done()) {
        const uint32_t c = in.get<uint32_t>();
        ClusterMember m;
        m.key = in.get<uint64_t>();
        m.rank_value = in.get<double>();
        m.id = in.get_bytes();
        m.excerpt = in.get_bytes();
        std::string_view row = in.get_raw(d * sizeof(float));
        if (in.failed() || c >= k || owners[c] != me) {
          failure = Status::error("semantic dedup: a cluster message arrived cut short");
          break;
        }
        Arriving& cluster = arriving[c];
        cluster.members.push_back(std::move(m));
        const float* floats = reinterpret_cast<const float*>(row.data());
        cluster.rows.insert(cluster.rows.end(), floats, floats + d);
        owned.origins.emplace_back(cluster.members.back().key, static_cast<int>(from));
        ++received;
      }
      std::string().swap(incoming[from]);
    }
    owned.peak_round_rows = std::max(owned.peak_round_rows, received);
    for (auto& [c, cluster] : arriving) {  // cluster order
      if (!failure.is_ok()) break;
      rank_members(cluster.members, order, ranking);
      ranked.clear();
      for (uint32_t i : order) ranked.push_back(std::move(cluster.members[i]));
      failure = spill.write(c, ranked, cluster.rows.data(), order);
      std::vector<float>().swap(cluster.rows);
    }
  }
  if (failure.is_ok()) failure = spill.close();
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, failure));
  std::sort(owned.origins.begin(), owned.origins.end());
  return owned;
}

Result<RoutedVerdicts> route_verdicts(dist::Comm& comm, std::vector<ItemOutcome>& outcomes,
                                      const std::vector<std::pair<uint64_t, int>>* origins,
                                      size_t thresholds) {
  RoutedVerdicts out;
  std::vector<uint64_t> removed_at(thresholds, 0);
  const size_t ranks = static_cast<size_t>(comm.size());
  std::vector<std::string> to_readers(ranks), to_writer(ranks);
  size_t at = 0;  // outcomes and origins are both sorted by key
  Status found;
  for (const ItemOutcome& o : outcomes) {
    for (size_t t = 0; t < thresholds; ++t) removed_at[t] += (o.removed >> t) & 1;
    if (!(o.removed & 1)) continue;
    int reader = 0;
    if (origins) {
      while (at < origins->size() && (*origins)[at].first < o.key) ++at;
      if (at == origins->size() || (*origins)[at].first != o.key) {
        found = Status::errorf("semantic dedup: no rank holds document key {}", o.key);
        break;
      }
      reader = (*origins)[at].second;
    }
    BytePacker to_reader(to_readers[static_cast<size_t>(reader)]);
    BytePacker to_rank0(to_writer[0]);
    put_outcome(to_reader, o);
    put_outcome(to_rank0, o);
  }
  std::vector<ItemOutcome>().swap(outcomes);
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, found));
  out.removed_at = dist::sum_over_ranks(comm, removed_at);
  auto own = read_outcomes(comm.all_to_all(std::move(to_readers)));
  auto all = read_outcomes(comm.all_to_all(std::move(to_writer)));
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, own.is_ok() ? all.status() : own.status()));
  out.own_removed = std::move(own).value();
  out.all_removed = std::move(all).value();
  return out;
}

}  // namespace winnow
