#include "dedup/duplicate_clusterer.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "dedup/bucket_shuffle.h"
#include "dedup/byte_codec.h"
#include "dedup/star_groups.h"
#include "dist/record_exchange.h"

namespace winnow {

namespace {

uint64_t bucket_hash(const BucketRecord& r) { return r.lo ^ (r.hi * 0x9E3779B97F4A7C15ull); }

using Pair = std::pair<uint64_t, uint64_t>;

void sort_unique(std::vector<Pair>& pairs) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
}

}  // namespace

// A linked document at its group's label owner.
struct DuplicateClusterer::Member {
  uint64_t label = 0;
  uint64_t doc = 0;
  double metric = 0;
  uint64_t reader = 0;  // the rank that read it
  std::string id;
};

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

Status DuplicateClusterer::add_documents(std::string_view doc_infos, uint64_t documents) {
  documents_ += documents;
  return infos_.add(doc_infos);
}

Status DuplicateClusterer::resume_links(std::vector<Pair> links) {
  sort_unique(links);
  stats_.documents = dist::sum_over_ranks(comm(), {documents_.load()})[0];
  return hold_links(std::move(links));
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

// Buckets -> links, per partition in parallel, on the rank owning each bucket after the
// shuffle (one process: its own spill).
Status DuplicateClusterer::shuffle_and_link(std::vector<Pair>& links, uint64_t& shared_buckets) {
  dist::Comm& ranks = comm();
  if (ranks.size() == 1) {
    WINNOW_RETURN_IF_ERROR(link_buckets(spill_, links, shared_buckets));
    stats_.documents = documents_.load();
    stats_.spill = spill_.stats();  // re-splits while linking included
    return Status::ok();
  }
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
  WINNOW_RETURN_IF_ERROR(dist::agree(ranks, link_buckets(owned, links, shared_buckets)));
  std::vector<uint64_t> sums = dist::sum_over_ranks(
      ranks, {shared_buckets, documents_.load(), stats_.spill.records, stats_.spill.spilled_bytes,
              stats_.spill.flushes, stats_.spill.splits, shuffle.rounds});
  shared_buckets = sums[0];
  stats_.documents = sums[1];
  stats_.spill = {sums[2], sums[3], sums[4], sums[5]};
  stats_.shuffle_rounds = shuffle.rounds;
  stats_.shuffle_bytes_by_rank.clear();
  std::string sent(reinterpret_cast<const char*>(&shuffle.bytes_sent), sizeof(uint64_t));
  for (const std::string& theirs : ranks.all_gather(sent)) {
    uint64_t bytes = 0;
    if (theirs.size() == sizeof bytes) std::memcpy(&bytes, theirs.data(), sizeof bytes);
    stats_.shuffle_bytes_by_rank.push_back(bytes);
  }
  return Status::ok();
}

Status DuplicateClusterer::compute_links() {
  std::vector<Pair> links;
  uint64_t shared_buckets = 0;
  WINNOW_RETURN_IF_ERROR(shuffle_and_link(links, shared_buckets));
  sort_unique(links);
  stats_.shared_buckets = shared_buckets;
  dist::Comm& ranks = comm();
  if (ranks.size() > 1) {
    // A pair that shares buckets of several bands was linked on each of their owners: each
    // link goes to one rank, by its hash, so that every link is held (and verified) once and
    // the ranks hold about as many each.
    const VertexOwners owners(static_cast<uint32_t>(options_.partitions), ranks.size());
    std::vector<std::vector<Pair>> by_owner(static_cast<size_t>(ranks.size()));
    for (const Pair& link : links) {
      by_owner[static_cast<size_t>(owners.owner(link.first ^ (link.second * 0x9E3779B97F4A7C15ull)))]
          .push_back(link);
    }
    std::vector<Pair>().swap(links);
    links = dist::exchange_records(ranks, by_owner);
    sort_unique(links);
  }
  return hold_links(std::move(links));
}

// Collective: `links` become this rank's (counted per rank in the stats) and are registered.
Status DuplicateClusterer::hold_links(std::vector<Pair> links) {
  dist::Comm& ranks = comm();
  stats_.links_by_rank.clear();
  const uint64_t mine = links.size();
  for (const std::string& theirs :
       ranks.all_gather(std::string_view(reinterpret_cast<const char*>(&mine), sizeof mine))) {
    uint64_t held = 0;
    if (theirs.size() == sizeof held) std::memcpy(&held, theirs.data(), sizeof held);
    stats_.links_by_rank.push_back(held);
  }
  stats_.links = 0;
  for (uint64_t held : stats_.links_by_rank) stats_.links += held;
  links_ = std::move(links);
  WINNOW_RETURN_IF_ERROR(register_linked());
  links_ready_ = true;
  return Status::ok();
}

// Link holders tell each linked document's owner that they need it; readers tell the owners
// of their documents that they read them; each owner joins the two, keeps (document, reader)
// and tells each reader its linked documents and their holders.
Status DuplicateClusterer::register_linked() {
  dist::Comm& ranks = comm();
  const VertexOwners owners(static_cast<uint32_t>(options_.partitions), ranks.size());
  const size_t n = static_cast<size_t>(ranks.size());
  const uint64_t me = static_cast<uint64_t>(ranks.rank());
  std::vector<std::vector<Pair>> out(n);
  for (const auto& [a, b] : links_) {
    out[static_cast<size_t>(owners.owner(a))].emplace_back(a, me);
    out[static_cast<size_t>(owners.owner(b))].emplace_back(b, me);
  }
  for (auto& o : out) sort_unique(o);
  std::vector<Pair> needed = dist::exchange_records(ranks, out);
  sort_unique(needed);
  Status read = infos_.for_each([&](uint64_t doc, double, std::string_view) {
    out[static_cast<size_t>(owners.owner(doc))].emplace_back(doc, me);
  });
  WINNOW_RETURN_IF_ERROR(dist::agree(ranks, read));
  std::vector<Pair> registered = dist::exchange_records(ranks, out);
  std::sort(registered.begin(), registered.end());
  reader_of_.clear();
  Status status;
  for (size_t i = 0, r = 0; i < needed.size(); ++i) {
    const uint64_t doc = needed[i].first;
    while (r < registered.size() && registered[r].first < doc) ++r;
    if (r == registered.size() || registered[r].first != doc) {
      status = Status::errorf("dedup: linked document {} has no entry in any document log", doc);
      break;
    }
    if (reader_of_.empty() || reader_of_.back().first != doc) reader_of_.push_back(registered[r]);
    out[static_cast<size_t>(registered[r].second)].push_back(needed[i]);
  }
  std::vector<Pair>().swap(registered);
  std::vector<Pair>().swap(needed);
  WINNOW_RETURN_IF_ERROR(dist::agree(ranks, status));
  holders_ = dist::exchange_records(ranks, out);
  sort_unique(holders_);
  linked_.clear();
  for (const auto& [doc, holder] : holders_) {
    if (linked_.empty() || linked_.back() != doc) linked_.push_back(doc);
  }
  return Status::ok();
}

// Each reader sends a linked document's set to the ranks holding its links; they keep the
// links whose two sets pass `check` (a document whose set could not be made has an empty one).
Status DuplicateClusterer::verify_links(std::vector<std::vector<uint32_t>>& sets,
                                        const LinkCheck& check) {
  dist::Comm& ranks = comm();
  std::vector<std::string> out(static_cast<size_t>(ranks.size()));
  for (const auto& [doc, holder] : holders_) {
    const size_t slot =
        static_cast<size_t>(std::lower_bound(linked_.begin(), linked_.end(), doc) - linked_.begin());
    const std::vector<uint32_t>& set = slot < sets.size() ? sets[slot] : std::vector<uint32_t>();
    BytePacker(out[static_cast<size_t>(holder)])
        .put(doc)
        .put(static_cast<uint64_t>(set.size()))
        .put_raw(set.data(), set.size() * sizeof(uint32_t));
  }
  std::vector<std::vector<uint32_t>>().swap(sets);
  std::vector<uint64_t> docs;
  std::vector<std::vector<uint32_t>> received;
  bool whole = true;
  for (const std::string& in : ranks.all_to_all(std::move(out))) {
    ByteUnpacker message(in);
    while (!message.done() && whole) {
      const uint64_t doc = message.get<uint64_t>();
      const uint64_t count = message.get<uint64_t>();
      std::string_view words = message.get_raw(count * sizeof(uint32_t));
      whole = !message.failed();
      if (!whole) break;
      docs.push_back(doc);
      received.emplace_back(count);
      std::memcpy(received.back().data(), words.data(), words.size());
    }
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(
      ranks, whole ? Status::ok() : Status::error("dedup: verification sets arrived cut short")));
  std::vector<size_t> order(docs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return docs[a] < docs[b]; });
  const std::vector<uint32_t> none;
  auto set_of = [&](uint64_t doc) -> const std::vector<uint32_t>& {
    auto it = std::lower_bound(order.begin(), order.end(), doc,
                               [&](size_t i, uint64_t d) { return docs[i] < d; });
    return it != order.end() && docs[*it] == doc ? received[*it] : none;
  };
  const size_t before = links_.size();
  std::erase_if(links_, [&](const Pair& link) {
    return !check(set_of(link.first), set_of(link.second));
  });
  stats_.links_rejected = dist::sum_over_ranks(ranks, {before - links_.size()})[0];
  return Status::ok();
}

// Each vertex owner tells the reader of each labelled document its label; each reader sends
// (label, document, metric, id) of those documents to the label's owner.
Status DuplicateClusterer::labels_to_readers(const ComponentLabels& labels,
                                             std::vector<Member>& members) {
  dist::Comm& ranks = comm();
  const VertexOwners owners(static_cast<uint32_t>(options_.partitions), ranks.size());
  const size_t n = static_cast<size_t>(ranks.size());
  std::vector<std::vector<Pair>> to_readers(n);
  for (size_t i = 0; i < labels.vertices.size(); ++i) {
    auto it = std::lower_bound(reader_of_.begin(), reader_of_.end(), Pair{labels.vertices[i], 0});
    if (it == reader_of_.end() || it->first != labels.vertices[i]) {
      return Status::errorf("dedup: document {} has no registered reader", labels.vertices[i]);
    }
    to_readers[static_cast<size_t>(it->second)].emplace_back(labels.vertices[i], labels.labels[i]);
  }
  std::vector<Pair> mine = dist::exchange_records(ranks, to_readers);  // (doc, label)
  std::sort(mine.begin(), mine.end());
  std::vector<std::string> out(n);
  std::vector<uint8_t> seen(mine.size(), 0);
  Status read = infos_.for_each([&](uint64_t doc, double metric, std::string_view id) {
    auto it = std::lower_bound(mine.begin(), mine.end(), Pair{doc, 0});
    if (it == mine.end() || it->first != doc) return;
    seen[static_cast<size_t>(it - mine.begin())] = 1;
    std::string& o = out[static_cast<size_t>(owners.owner(it->second))];
    BytePacker(o).put(it->second);
    DocInfoLog::serialize(o, doc, metric, id);  // doc, metric, then the id with its length
  });
  stats_.doc_info_spilled_bytes = infos_.spilled_bytes();
  if (read.is_ok() && std::find(seen.begin(), seen.end(), 0) != seen.end()) {
    read = Status::error("dedup: a linked document has no entry in the document log");
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(ranks, read));
  std::vector<std::string> in = ranks.all_to_all(std::move(out));
  bool whole = true;
  for (size_t from = 0; from < in.size() && whole; ++from) {
    ByteUnpacker message(in[from]);
    while (!message.done()) {
      Member m;
      m.label = message.get<uint64_t>();
      m.doc = message.get<uint64_t>();
      m.metric = message.get<double>();
      m.id = std::string(message.get_bytes());
      m.reader = from;
      whole = !message.failed();
      if (!whole) break;
      members.push_back(std::move(m));
    }
  }
  return dist::agree(ranks, whole ? Status::ok()
                                  : Status::error("dedup: document entries arrived cut short"));
}

// Star groups need their component's kept links where the label lives: each link goes to the
// owner of its first document, which knows that document's label, and on to the label's owner.
Status DuplicateClusterer::links_to_labels(const ComponentLabels& labels, std::vector<Pair>& kept,
                                           std::vector<std::array<uint64_t, 3>>& label_links) {
  dist::Comm& ranks = comm();
  const VertexOwners owners(static_cast<uint32_t>(options_.partitions), ranks.size());
  const size_t n = static_cast<size_t>(ranks.size());
  std::vector<std::vector<Pair>> to_owner(n);
  for (const Pair& link : kept) to_owner[static_cast<size_t>(owners.owner(link.first))].push_back(link);
  std::vector<Pair>().swap(kept);
  std::vector<Pair> mine = dist::exchange_records(ranks, to_owner);
  std::vector<std::vector<std::array<uint64_t, 3>>> to_label(n);
  Status status;
  for (const auto& [a, b] : mine) {
    const uint64_t* label = labels.label_of(a);
    if (!label) {
      status = Status::errorf("dedup: linked document {} has no label", a);
      break;
    }
    to_label[static_cast<size_t>(owners.owner(*label))].push_back({*label, a, b});
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(ranks, status));
  label_links = dist::exchange_records(ranks, to_label);
  std::sort(label_links.begin(), label_links.end());
  return Status::ok();
}

Result<ClusterResult> DuplicateClusterer::finish(const TableOutput& table,
                                                 std::vector<std::vector<uint32_t>>* sets,
                                                 const LinkCheck& check) {
  if (!links_ready_) WINNOW_RETURN_IF_ERROR(compute_links());
  dist::Comm& ranks = comm();
  if (check) {
    std::vector<std::vector<uint32_t>> none;
    WINNOW_RETURN_IF_ERROR(verify_links(sets ? *sets : none, check));
  }
  std::vector<Pair> kept = std::move(links_);
  std::vector<Pair> edges;
  if (options_.groups == GroupShape::kStars) {
    edges = collapse_to_stars(kept);  // `kept` stays: the groups need every link
  } else {
    edges = collapse_to_stars(std::move(kept));
    kept.clear();
  }
  const VertexOwners owners(static_cast<uint32_t>(options_.partitions), ranks.size());
  auto labels = label_components(ranks, owners, edges);
  if (!labels.is_ok()) return labels.status();
  stats_.propagation_rounds = labels->rounds;
  std::vector<Member> members;
  WINNOW_RETURN_IF_ERROR(labels_to_readers(*labels, members));
  std::vector<std::array<uint64_t, 3>> label_links;
  if (options_.groups == GroupShape::kStars) {
    WINNOW_RETURN_IF_ERROR(links_to_labels(*labels, kept, label_links));
  }
  labels = ComponentLabels();
  std::vector<Pair>().swap(reader_of_);
  std::vector<TableRow> rows;
  std::vector<std::vector<Pair>> removals(static_cast<size_t>(ranks.size()));
  ClusterResult result;
  PairChooser chooser(options_.report_pairs, options_.report_seed);
  build_groups(members, label_links, rows, removals, result, chooser);
  for (const std::string& theirs : ranks.all_gather(chooser.serialize())) chooser.merge(theirs);
  result.report_pairs = chooser.chosen();
  std::vector<Pair> own = dist::exchange_records(ranks, removals);  // (doc, group)
  std::sort(own.begin(), own.end());
  result.removals = RemovalSet(std::move(own));
  // The figures of the whole table, summed over the label owners.
  std::string sizes;
  for (const auto& [size, count] : result.component_sizes) BytePacker(sizes).put(size).put(count);
  result.component_sizes.clear();
  for (const std::string& theirs : ranks.all_gather(sizes)) {
    ByteUnpacker message(theirs);
    while (!message.done()) {
      const uint64_t size = message.get<uint64_t>();
      const uint64_t count = message.get<uint64_t>();
      if (!message.failed()) result.component_sizes[size] += count;
    }
  }
  std::vector<uint64_t> sums =
      dist::sum_over_ranks(ranks, {result.members, result.removed, stats_.kept_unmatched});
  result.members = sums[0];
  result.removed = sums[1];
  stats_.kept_unmatched = sums[2];
  WINNOW_RETURN_IF_ERROR(write_table_partitions(ranks, rows,
                                                static_cast<uint32_t>(options_.partitions),
                                                table.path, table.format));
  return result;
}

// At the label owner: each label's members (by key), grouped by the rule; the table rows, the
// removals for each reader and the group sizes.
void DuplicateClusterer::build_groups(std::vector<Member>& members,
                                      std::vector<std::array<uint64_t, 3>>& label_links,
                                      std::vector<TableRow>& rows,
                                      std::vector<std::vector<Pair>>& removals,
                                      ClusterResult& result, PairChooser& chooser) {
  std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
    return a.label != b.label ? a.label < b.label : a.doc < b.doc;
  });
  stats_.kept_unmatched = 0;
  size_t link_at = 0;
  std::vector<double> metric;
  std::vector<uint32_t> group, survivor;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (size_t begin = 0; begin < members.size();) {
    size_t end = begin;
    while (end < members.size() && members[end].label == members[begin].label) ++end;
    const uint64_t label = members[begin].label;
    metric.clear();
    for (size_t i = begin; i < end; ++i) {
      metric.push_back(std::isnan(members[i].metric) ? -HUGE_VAL : members[i].metric);
    }
    if (options_.groups == GroupShape::kStars) {
      pairs.clear();
      auto index = [&](uint64_t doc) {
        return static_cast<uint32_t>(
            std::lower_bound(members.begin() + static_cast<std::ptrdiff_t>(begin),
                             members.begin() + static_cast<std::ptrdiff_t>(end), doc,
                             [](const Member& m, uint64_t d) { return m.doc < d; }) -
            (members.begin() + static_cast<std::ptrdiff_t>(begin)));
      };
      while (link_at < label_links.size() && label_links[link_at][0] < label) ++link_at;
      for (; link_at < label_links.size() && label_links[link_at][0] == label; ++link_at) {
        pairs.emplace_back(index(label_links[link_at][1]), index(label_links[link_at][2]));
      }
      star_groups(metric, pairs, group, survivor);
    } else {
      component_groups(metric, group, survivor);
    }
    std::map<uint32_t, uint64_t> size_of;
    for (size_t i = 0; i < group.size(); ++i) {
      if (group[i] != UINT32_MAX) ++size_of[group[i]];
    }
    for (const auto& [g, size] : size_of) ++result.component_sizes[size];
    for (size_t i = 0; i < group.size(); ++i) {
      if (group[i] == UINT32_MAX) continue;
      Member& m = members[begin + i];
      TableRow& row = rows.emplace_back();
      row.entry.doc = m.doc;
      row.entry.component = members[begin + group[i]].doc;
      row.entry.survivor = survivor[group[i]] == i;
      row.entry.id = std::move(m.id);
      row.component_size = size_of[group[i]];
      ++result.members;
      if (!row.entry.survivor) {
        ++result.removed;
        removals[static_cast<size_t>(m.reader)].emplace_back(m.doc, row.entry.component);
        chooser.offer(m.doc, members[begin + survivor[group[i]]].doc);
      }
    }
    begin = end;
  }
  std::vector<Member>().swap(members);
  std::vector<std::array<uint64_t, 3>>().swap(label_links);
}

// One component: the survivor is the best metric, ties to the smallest key (members are
// visited by key, and only a strictly better metric replaces the best so far).
void DuplicateClusterer::component_groups(const std::vector<double>& metric,
                                          std::vector<uint32_t>& group,
                                          std::vector<uint32_t>& survivor) const {
  const size_t n = metric.size();
  group.assign(n, 0);
  survivor.assign(n, UINT32_MAX);
  uint32_t best = 0;
  for (uint32_t i = 1; i < n; ++i) {
    if (options_.survivor != SurvivorRule::kSmallestKey && metric[i] > metric[best]) best = i;
  }
  survivor[0] = best;
}

// Stars (dedup/star_groups.h) within one component, centres chosen best metric first, ties to
// the smallest key; a group is named by its smallest member, as a component is.
void DuplicateClusterer::star_groups(const std::vector<double>& metric,
                                     const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                                     std::vector<uint32_t>& group,
                                     std::vector<uint32_t>& survivor) {
  const size_t n = metric.size();
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  if (options_.survivor != SurvivorRule::kSmallestKey) {
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return metric[a] > metric[b]; });
  }
  std::vector<uint32_t> centre = assign_star_centres(n, order, pairs);
  std::vector<uint32_t> smallest(n, UINT32_MAX), size(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    smallest[centre[i]] = std::min(smallest[centre[i]], i);
    ++size[centre[i]];
  }
  group.assign(n, UINT32_MAX);
  survivor.assign(n, UINT32_MAX);
  for (uint32_t i = 0; i < n; ++i) {
    if (size[centre[i]] < 2) {
      ++stats_.kept_unmatched;
      continue;
    }
    group[i] = smallest[centre[i]];
    survivor[group[i]] = centre[i];
  }
}

}  // namespace winnow
