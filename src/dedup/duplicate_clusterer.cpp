#include "dedup/duplicate_clusterer.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "dedup/bucket_shuffle.h"
#include "dedup/union_find.h"

namespace winnow {

namespace {

uint64_t bucket_hash(const BucketRecord& r) { return r.lo ^ (r.hi * 0x9E3779B97F4A7C15ull); }

}  // namespace

DuplicateClusterer::DuplicateClusterer(ClustererOptions options)
    : options_(std::move(options)),
      // Bucket records take most of the budget; per-document infos are small.
      spill_(options_.spill_dir, "buckets", options_.partitions, options_.memory_bytes / 4 * 3,
             &bucket_hash),
      infos_(options_.spill_dir + "/docs.spill", options_.memory_bytes / 4) {}

Status DuplicateClusterer::add(const BucketRecord* records, size_t n, std::string_view doc_infos,
                               uint64_t documents) {
  documents_ += documents;
  WINNOW_RETURN_IF_ERROR(spill_.add(records, n));
  return infos_.add(doc_infos);
}

Status DuplicateClusterer::link_buckets(PartitionedSpill<BucketRecord>& spill,
                                        std::vector<std::pair<uint64_t, uint64_t>>& links,
                                        uint64_t& shared_buckets) {
  const int threads = std::max(1, options_.threads);
  const bool anchors = options_.links == LinkShape::kAnchors;
  const bool all_pairs = options_.links == LinkShape::kAllPairs;
  std::mutex mutex;
  return spill.for_each_partition(threads, [&](std::vector<BucketRecord>& recs) {
    std::sort(recs.begin(), recs.end(), [](const BucketRecord& x, const BucketRecord& y) {
      if (x.hi != y.hi) return x.hi < y.hi;
      if (x.lo != y.lo) return x.lo < y.lo;
      return x.doc < y.doc;
    });
    std::vector<std::pair<uint64_t, uint64_t>> local;
    uint64_t local_buckets = 0;
    for (size_t i = 0; i < recs.size();) {
      size_t j = i + 1;
      while (j < recs.size() && recs[j].hi == recs[i].hi && recs[j].lo == recs[i].lo) {
        if (all_pairs) {
          for (size_t k = i; k < j; ++k) {
            if (recs[k].doc != recs[j].doc) local.emplace_back(recs[k].doc, recs[j].doc);
          }
        } else if (recs[j].doc != recs[j - 1].doc) {
          if (!anchors) {
            local.emplace_back(recs[j - 1].doc, recs[j].doc);
          } else {
            local.emplace_back(recs[i].doc, recs[j].doc);
            if (j > i + 1) local.emplace_back(recs[i + 1].doc, recs[j].doc);
          }
        }
        ++j;
      }
      if (j - i > 1) ++local_buckets;
      i = j;
    }
    std::sort(local.begin(), local.end());
    local.erase(std::unique(local.begin(), local.end()), local.end());
    std::vector<BucketRecord>().swap(recs);
    std::lock_guard lock(mutex);
    links.insert(links.end(), local.begin(), local.end());
    shared_buckets += local_buckets;
    return Status::ok();
  });
}

Status DuplicateClusterer::compute_links() {
  // 1. Buckets -> links, per partition in parallel; across ranks, on the rank owning each
  // bucket after the shuffle, then gathered.
  std::vector<std::pair<uint64_t, uint64_t>> links;
  uint64_t shared_buckets = 0;
  dist::Comm& ranks = comm();
  if (ranks.size() == 1) {
    WINNOW_RETURN_IF_ERROR(link_buckets(spill_, links, shared_buckets));
    stats_.documents = documents_.load();
    stats_.spill = spill_.stats();  // re-splits while linking included
  } else {
    PartitionedSpill<BucketRecord> owned(options_.spill_dir, "owned", options_.partitions,
                                         options_.memory_bytes / 4 * 3, &bucket_hash);
    ShuffleStats shuffle;
    // Blocks small enough that one per destination stays a fraction of the budget.
    const size_t block_bytes =
        std::clamp<size_t>(options_.memory_bytes / 8 / static_cast<size_t>(ranks.size()),
                           size_t{64} << 10, size_t{16} << 20);
    WINNOW_RETURN_IF_ERROR(shuffle_bucket_records(ranks, spill_, owned, &bucket_hash,
                                                  options_.spill_dir + "/outgoing", block_bytes,
                                                  std::max(1, options_.threads), shuffle));
    stats_.spill = spill_.stats();
    Status linked = dist::agree(ranks, link_buckets(owned, links, shared_buckets));
    if (!linked.is_ok()) return linked;
    std::string mine(reinterpret_cast<const char*>(links.data()), links.size() * sizeof(links[0]));
    links.clear();
    for (const std::string& theirs : ranks.all_gather(mine)) {
      const size_t n = theirs.size() / sizeof(links[0]);
      const size_t at = links.size();
      links.resize(at + n);
      std::memcpy(static_cast<void*>(links.data() + at), theirs.data(), n * sizeof(links[0]));
    }
    std::vector<uint64_t> sums = dist::sum_over_ranks(
        ranks, {shared_buckets, documents_.load(), stats_.spill.records, stats_.spill.spilled_bytes,
                stats_.spill.flushes, stats_.spill.splits, shuffle.rounds});
    shared_buckets = sums[0];
    stats_.documents = sums[1];
    stats_.spill = {sums[2], sums[3], sums[4], sums[5]};
    stats_.shuffle_rounds = shuffle.rounds;
    std::string sent(reinterpret_cast<const char*>(&shuffle.bytes_sent), sizeof(uint64_t));
    stats_.shuffle_bytes_by_rank.clear();
    for (const std::string& theirs : ranks.all_gather(sent)) {
      uint64_t bytes = 0;
      if (theirs.size() == sizeof bytes) std::memcpy(&bytes, theirs.data(), sizeof bytes);
      stats_.shuffle_bytes_by_rank.push_back(bytes);
    }
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  stats_.shared_buckets = shared_buckets;
  stats_.links = links.size();
  std::vector<uint64_t> members;
  members.reserve(links.size() * 2);
  for (const auto& [a, b] : links) {
    members.push_back(a);
    members.push_back(b);
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  links_ = std::move(links);
  members_ = std::move(members);
  links_ready_ = true;
  return Status::ok();
}

Result<DuplicatesTable> DuplicateClusterer::finish(const LinkFilter& filter) {
  if (!links_ready_) WINNOW_RETURN_IF_ERROR(compute_links());
  const int threads = std::max(1, options_.threads);
  std::vector<std::pair<uint64_t, uint64_t>> links = std::move(links_);
  if (filter) {
    size_t before = links.size();
    std::erase_if(links, [&](const auto& link) { return !filter(link.first, link.second); });
    stats_.links_rejected = before - links.size();
  }

  // 2. Dense indices in DocKey order, so the union-find's smallest-index roots are the
  // smallest DocKeys.
  // Only documents some kept link touches belong to a group.
  std::vector<uint64_t> members;
  members.reserve(links.size() * 2);
  for (const auto& [a, b] : links) {
    members.push_back(a);
    members.push_back(b);
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  std::vector<uint64_t>().swap(members_);
  if (members.size() >= UINT32_MAX) return Status::error("too many duplicate documents");
  auto index_of = [&](uint64_t doc) {
    return static_cast<uint32_t>(std::lower_bound(members.begin(), members.end(), doc) -
                                 members.begin());
  };
  std::vector<std::pair<uint32_t, uint32_t>> pairs(links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    pairs[i] = {index_of(links[i].first), index_of(links[i].second)};
  }
  std::vector<std::pair<uint64_t, uint64_t>>().swap(links);
  ConcurrentUnionFind components(members.size());
  components.unite_all(pairs, threads);
  std::vector<std::pair<uint32_t, uint32_t>>().swap(pairs);

  // 3. Ids and survivor metrics of the members.
  std::vector<double> metric(members.size(), -HUGE_VAL);
  std::vector<std::string> ids(members.size());
  std::vector<uint8_t> seen(members.size(), 0);
  auto take = [&](uint64_t doc, double value, std::string_view id) {
    auto it = std::lower_bound(members.begin(), members.end(), doc);
    if (it == members.end() || *it != doc) return;
    size_t i = static_cast<size_t>(it - members.begin());
    metric[i] = std::isnan(value) ? -HUGE_VAL : value;
    ids[i] = std::string(id);
    seen[i] = 1;
  };
  dist::Comm& ranks = comm();
  if (ranks.size() == 1) {
    WINNOW_RETURN_IF_ERROR(infos_.for_each(take));
  } else {
    // Each rank logged its own documents: the members' entries travel to every rank.
    std::string mine;
    Status read = infos_.for_each([&](uint64_t doc, double value, std::string_view id) {
      if (std::binary_search(members.begin(), members.end(), doc)) {
        DocInfoLog::serialize(mine, doc, value, id);
      }
    });
    read = dist::agree(ranks, read);
    if (!read.is_ok()) return read;
    for (const std::string& theirs : ranks.all_gather(mine)) {
      if (!DocInfoLog::visit_serialized(theirs, take)) {
        return Status::error("dedup: a rank's document entries arrived cut short");
      }
    }
  }
  stats_.doc_info_spilled_bytes = infos_.spilled_bytes();
  if (std::find(seen.begin(), seen.end(), 0) != seen.end()) {
    return Status::error("dedup: a linked document has no entry in the document log");
  }

  // 4. One survivor per component: the best metric, ties to the smallest DocKey (members are
  // visited in DocKey order, and only a strictly better metric replaces the best so far).
  std::vector<uint32_t> root(members.size());
  std::vector<uint32_t> best(members.size(), UINT32_MAX);
  for (uint32_t i = 0; i < members.size(); ++i) {
    uint32_t r = components.find(i);
    root[i] = r;
    uint32_t& b = best[r];
    if (b == UINT32_MAX) {
      b = i;
    } else if (options_.survivor != SurvivorRule::kSmallestKey && metric[i] > metric[b]) {
      b = i;
    }
  }
  DuplicatesTable table;
  table.entries.resize(members.size());
  for (uint32_t i = 0; i < members.size(); ++i) {
    DuplicateEntry& e = table.entries[i];
    e.doc = members[i];
    e.component = members[root[i]];
    e.survivor = best[root[i]] == i;
    e.id = std::move(ids[i]);
  }
  table.sort();
  return table;
}

}  // namespace winnow
