#include "dedup/semantic_pruning.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "dedup/semantic_device.h"
#include "dedup/streamed_pruner.h"

namespace winnow {

namespace {

// The decisions of one cluster (members and rows in rank order) as outcomes.
Status prune_one(ClusterData& data, size_t d, const PruneOptions& prune,
                 const SemanticOptions& options, std::vector<ItemOutcome>& out) {
  PruneResult result;
  if (data.tiles) {
    auto streamed = prune_streamed(*data.tiles, prune, options.memory_bytes);
    if (!streamed.is_ok()) return streamed.status();
    result = std::move(streamed).value();
  } else {
    result = prune_cluster_anywhere(options.device, data.rows.data(), data.members.size(), d, prune);
    std::vector<float>().swap(data.rows);
  }
  for (size_t i = 0; i < data.members.size(); ++i) {
    const ClusterMember& m = data.members[i];
    const ClusterMember& matched = data.members[result.matched[i]];
    ItemOutcome o;
    o.key = m.key;
    o.cluster = data.cluster;
    o.similarity = result.max_similarity[i];
    o.removed = result.removed[i];
    o.matched_key = matched.key;
    if (o.removed & 1) {
      o.id = m.id;
      o.matched_id = matched.id;
      o.excerpt = m.excerpt;
      o.matched_excerpt = matched.excerpt;
    }
    out.push_back(std::move(o));
  }
  return Status::ok();
}

}  // namespace

PruneOptions semantic_prune_options(const SemanticOptions& options) {
  PruneOptions prune;
  prune.block = std::max<size_t>(options.block, 1);
  prune.keep_one_per_group = options.keep_one_per_group;
  prune.thresholds.push_back(1.0 - options.eps);
  for (double e : options.eps_sweep) prune.thresholds.push_back(1.0 - e);
  return prune;
}

Result<std::vector<ItemOutcome>> prune_spilled_clusters(const ClusterSpill& spill, size_t d,
                                                        const SemanticOptions& options,
                                                        int threads) {
  const PruneOptions prune = semantic_prune_options(options);
  PruneOptions alone = prune;  // a large cluster's: every thread on its column blocks
  alone.threads = threads;
  const size_t large = options.keep_one_per_group ? SIZE_MAX : 4 * prune.block;
  auto deferred = [&](const ClusterData& data) {
    return data.tiles.has_value() || data.members.size() > large;
  };
  std::vector<std::vector<ItemOutcome>> outcomes(spill.partitions());
  std::vector<uint8_t> has_large(spill.partitions(), 0);
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  Status first_error;
  auto work = [&] {
    for (size_t p = next++; p < spill.partitions(); p = next++) {
      Status status = spill.read_partition(p, [&](ClusterData& data) -> Status {
        if (deferred(data)) {
          has_large[p] = 1;
          return Status::ok();
        }
        return prune_one(data, d, prune, options, outcomes[p]);
      });
      if (!status.is_ok()) {
        std::lock_guard lock(error_mutex);
        if (first_error.is_ok()) first_error = status;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(threads, static_cast<int>(spill.partitions())); ++t) {
    pool.emplace_back(work);
  }
  work();
  for (std::thread& t : pool) t.join();
  if (!first_error.is_ok()) return first_error;
  for (size_t p = 0; p < spill.partitions(); ++p) {
    if (!has_large[p]) continue;
    WINNOW_RETURN_IF_ERROR(spill.read_partition(p, [&](ClusterData& data) -> Status {
      return deferred(data) ? prune_one(data, d, alone, options, outcomes[p])
                            : Status::ok();
    }));
  }
  std::vector<ItemOutcome> all;
  for (auto& part : outcomes) {
    for (auto& o : part) all.push_back(std::move(o));
    std::vector<ItemOutcome>().swap(part);
  }
  std::sort(all.begin(), all.end(),
            [](const ItemOutcome& a, const ItemOutcome& b) { return a.key < b.key; });
  return all;
}

}  // namespace winnow
