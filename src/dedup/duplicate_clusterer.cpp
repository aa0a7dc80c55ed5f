#include "dedup/duplicate_clusterer.h"

#include <algorithm>
#include <mutex>

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

Status DuplicateClusterer::compute_links() {
  const int threads = std::max(1, options_.threads);
  const bool anchors = options_.links == LinkShape::kAnchors;
  const bool all_pairs = options_.links == LinkShape::kAllPairs;
  // 1. Buckets -> links, per partition in parallel.
  std::mutex mutex;
  std::vector<std::pair<uint64_t, uint64_t>> links;
  uint64_t shared_buckets = 0;
  WINNOW_RETURN_IF_ERROR(spill_.for_each_partition(threads, [&](std::vector<BucketRecord>& recs) {
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
  }));
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  stats_.documents = documents_.load();
  stats_.spill = spill_.stats();
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
  WINNOW_RETURN_IF_ERROR(infos_.for_each([&](uint64_t doc, double value, std::string_view id) {
    auto it = std::lower_bound(members.begin(), members.end(), doc);
    if (it == members.end() || *it != doc) return;
    size_t i = static_cast<size_t>(it - members.begin());
    metric[i] = std::isnan(value) ? -HUGE_VAL : value;
    ids[i] = std::string(id);
    seen[i] = 1;
  }));
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
