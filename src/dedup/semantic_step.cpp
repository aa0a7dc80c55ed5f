#include "dedup/semantic_step.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include "core/doc_key.h"
#include "core/hash.h"
#include "core/json_text.h"
#include "dedup/cluster_pruner.h"
#include "dedup/cluster_spill.h"
#include "dedup/kmeans.h"
#include "dedup/mapped_matrix.h"
#include "dedup/semantic_report.h"
#include "dedup/streamed_pruner.h"
#include "dist/comm.h"
#include "io/atomic_file.h"

namespace winnow {

namespace {

constexpr size_t kExcerptBytes = 160;

// The first `limit` bytes of `text`, not cutting a UTF-8 sequence.
std::string_view excerpt_of(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

Result<std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::errorf("cannot read {}", path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One item's outcome after pruning.
struct ItemOutcome {
  uint64_t key = 0;
  uint32_t cluster = 0;
  float similarity = 0;
  uint32_t removed = 0;  // bit t: removed at thresholds[t]
  uint64_t matched_key = 0;
  std::string id, matched_id, excerpt, matched_excerpt;  // removed items only
};

// Items in the order of a run's decisions: rank key, then the key in the same direction.
void rank_members(std::vector<ClusterMember>& members, std::vector<uint32_t>& order,
                  SemanticRanking ranking) {
  order.resize(members.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const ClusterMember& x = members[a];
    const ClusterMember& y = members[b];
    switch (ranking) {
      case SemanticRanking::kHard:  // farthest from the centroid first; ties: larger key
        if (x.rank_value != y.rank_value) return x.rank_value > y.rank_value;
        return x.key > y.key;
      case SemanticRanking::kEasy:  // nearest first; ties: smaller key
      case SemanticRanking::kRandom:
        if (x.rank_value != y.rank_value) return x.rank_value < y.rank_value;
        return x.key < y.key;
      case SemanticRanking::kField: {  // highest first, items without a value last
        bool xn = std::isnan(x.rank_value), yn = std::isnan(y.rank_value);
        if (xn != yn) return yn;
        if (!xn && x.rank_value != y.rank_value) return x.rank_value > y.rank_value;
        return x.key < y.key;
      }
    }
    return x.key < y.key;
  });
}

}  // namespace

SemanticStep::SemanticStep(SemanticOptions options)
    : options_(std::move(options)),
      reader_(options_.embedding_field),
      ranking_field_(options_.ranking_field) {}

Status SemanticStep::begin_identify(const GlobalStepContext& context) {
  context_ = context;
  log_ = std::make_unique<EmbeddingLog>(context.spill_dir + "/embeddings.spill",
                                        options_.memory_bytes);
  observe_ns_ = 0;
  return Status::ok();
}

Status SemanticStep::observe(const DocBatch& batch) {
  auto begin = std::chrono::steady_clock::now();
  thread_local std::string out;
  thread_local std::vector<float> embedding;
  out.clear();
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!batch.kept(i)) continue;
    std::string problem = reader_.read(batch, i, embedding);
    LoggedItem item;
    item.key = batch.key(i).value();
    item.shard = batch.shard;
    item.line = batch.line(i);
    item.rank_value =
        options_.ranking == SemanticRanking::kField ? ranking_field_.of(batch, i) : 0.0;
    item.id = batch.id(i);
    item.excerpt = excerpt_of(batch.text(i), kExcerptBytes);
    item.problem = problem;
    item.floats = std::string_view(reinterpret_cast<const char*>(embedding.data()),
                                   embedding.size() * sizeof(float));
    EmbeddingLog::serialize(out, item);
  }
  Status status = log_->add(out);
  observe_ns_ += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begin)
          .count());
  return status;
}

// Across ranks each rank logged the items of its own shards. Every rank gathers them all and
// computes the same result from the same key-sorted items (rank 0 writes it): identical to one
// process by construction. This holds every embedding on every rank, as one process holds
// them all; k-means with reduced centroid sums and clusters pruned on their own ranks would
// divide the work, and is not built yet.
Status SemanticStep::gather_items(dist::Comm& comm) {
  std::string mine;
  Status read = log_->for_each([&](const LoggedItem& item) {
    EmbeddingLog::serialize(mine, item);
    return Status::ok();
  });
  read = dist::agree(comm, read);
  if (!read.is_ok()) return read;
  log_ =
      std::make_unique<EmbeddingLog>(context_.spill_dir + "/gathered.spill", options_.memory_bytes);
  std::vector<std::string> parts = comm.all_gather(mine);
  std::string().swap(mine);
  for (std::string& part : parts) {
    WINNOW_RETURN_IF_ERROR(log_->add(part));
    std::string().swap(part);
  }
  return Status::ok();
}

Status SemanticStep::write_result_file(const std::string& name, const std::string& content) const {
  const bool writer = !context_.comm || context_.comm->rank() == 0;
  return writer ? AtomicFile::write_whole(context_.result_dir + "/" + name, content) : Status::ok();
}

Status SemanticStep::finish_identify() {
  const auto begin = std::chrono::steady_clock::now();
  const int threads = std::max(1, context_.threads);
  if (context_.comm && context_.comm->size() > 1) {
    WINNOW_RETURN_IF_ERROR(gather_items(*context_.comm));
  }

  // ---- 1. Load, in key order ----
  // Two reads of the log: the first keeps each item's facts (and its squared norm), the second
  // writes each usable embedding, normalised, straight into its row of the key-ordered matrix
  // file, which is then mapped read-only: the embeddings are never on the heap all at once.
  // The log yields the same order both times.
  struct Meta {
    uint64_t key;
    uint32_t shard;
    uint64_t line;
    double rank_value;
    std::string id, excerpt, problem;
    uint64_t arrival;  // position in the log
    uint32_t dims;
    double norm;  // squared
  };
  std::vector<Meta> meta;
  WINNOW_RETURN_IF_ERROR(log_->for_each([&](const LoggedItem& item) -> Status {
    double norm = 0;
    for (size_t j = 0; j < item.dims(); ++j) {
      float v;
      std::memcpy(&v, item.floats.data() + j * sizeof(float), sizeof v);
      norm += double{v} * v;
    }
    meta.push_back({item.key, item.shard, item.line, item.rank_value, std::string(item.id),
                    std::string(item.excerpt), std::string(item.problem), meta.size(),
                    static_cast<uint32_t>(item.dims()), norm});
    return Status::ok();
  }));
  std::sort(meta.begin(), meta.end(), [](const Meta& a, const Meta& b) { return a.key < b.key; });

  size_t d = options_.dimension;
  if (d == 0) {
    for (const Meta& m : meta) {
      if (m.problem.empty()) {
        d = m.dims;
        break;
      }
    }
  }
  auto where = [&](const Meta& m) {
    std::string file = m.shard < context_.input_paths.size() ? context_.input_paths[m.shard]
                                                             : fmt::format("shard {}", m.shard);
    return fmt::format("{}:{}", file, m.line);
  };
  // Items without a usable embedding, with the message naming file and line.
  std::vector<std::pair<uint64_t, std::string>> bad;
  std::vector<Meta> items;
  std::vector<int64_t> row_of(meta.size(), -1);  // by arrival
  for (Meta& m : meta) {
    std::string problem = m.problem;
    if (problem.empty() && m.dims != d) {
      problem = fmt::format("embedding field '{}' has {} numbers, expected {}",
                            options_.embedding_field, m.dims, d);
    }
    if (problem.empty() && options_.normalize && !(m.norm > 0)) {
      problem = fmt::format("embedding field '{}' is a zero vector (cannot be normalised)",
                            options_.embedding_field);
    }
    if (!problem.empty()) {
      bad.emplace_back(m.key,
                       fmt::format("{}: stage '{}': {}", where(m), options_.stage_label, problem));
      continue;
    }
    row_of[m.arrival] = static_cast<int64_t>(items.size());
    items.push_back(std::move(m));
  }
  std::vector<Meta>().swap(meta);
  // n x d, key order, in a flat file mapped read-only (dedup/mapped_matrix.h): the embeddings
  // live in the page cache, not in a heap copy of all of them.
  std::filesystem::create_directories(context_.spill_dir);
  MappedMatrix matrix;
  WINNOW_RETURN_IF_ERROR(matrix.create(context_.spill_dir + "/embeddings.f32", items.size(), d));
  {
    uint64_t arrival = 0;
    std::vector<float> normalised(d);
    WINNOW_RETURN_IF_ERROR(log_->for_each([&](const LoggedItem& item) -> Status {
      const int64_t row = row_of[arrival++];
      if (row < 0) return Status::ok();
      const double scale =
          options_.normalize ? 1.0 / std::sqrt(items[static_cast<size_t>(row)].norm) : 1.0;
      for (size_t j = 0; j < d; ++j) {
        float v;
        std::memcpy(&v, item.floats.data() + j * sizeof(float), sizeof v);
        normalised[j] = static_cast<float>(v * scale);
      }
      return matrix.write_row(static_cast<size_t>(row), normalised.data());
    }));
  }
  WINNOW_RETURN_IF_ERROR(matrix.map());
  std::vector<int64_t>().swap(row_of);
  const uint64_t log_spilled = log_->spilled_bytes();
  log_.reset();
  const size_t n = items.size();

  // ---- 2. k-means on a key-based sample, then every item to its nearest centroid ----
  KMeansOptions km;
  km.max_iter = options_.max_iter;
  km.tol = options_.tol;
  km.seed = options_.seed;
  km.spherical = options_.spherical;
  km.max_points_per_centroid = options_.max_points_per_centroid;
  km.threads = threads;
  std::vector<float> sample;
  size_t sampled = n;
  if (options_.sample_fraction < 1.0) {
    sampled = 0;
    for (size_t r = 0; r < n; ++r) {
      if (unit_interval(hash_u64(items[r].key, options_.seed ^ 0x5eed)) <
          options_.sample_fraction) {
        sample.insert(sample.end(), matrix.row(r), matrix.row(r) + d);
        ++sampled;
      }
    }
    if (sampled == 0 && n > 0) {  // too small a fraction of too few items: fit on them all
      sample.assign(matrix.data(), matrix.data() + n * d);
      sampled = n;
    }
  }
  const float* fit_rows = options_.sample_fraction < 1.0 ? sample.data() : matrix.data();
  km.clusters = std::min(options_.n_clusters, sampled);
  KMeansResult fit;
  std::vector<int64_t> labels(n);
  std::vector<float> scores(n);
  if (n > 0) {
    auto trained = train_kmeans(fit_rows, sampled, d, km);
    if (!trained.is_ok()) {
      return Status::errorf("stage '{}': {}", options_.stage_label, trained.status().message());
    }
    fit = std::move(trained).value();
    std::vector<float>().swap(sample);
    assign_nearest(matrix.data(), n, d, fit.centroids.data(), fit.clusters, km.spherical, threads,
                   labels.data(), scores.data());
  }
  const double kmeans_seconds = seconds_since(begin);
  // Rank keys (cosine distance to the normalised centroid) and inertia, in key order.
  std::vector<double> centroid_norm(fit.clusters, 0);
  for (size_t c = 0; c < fit.clusters; ++c) {
    for (size_t j = 0; j < d; ++j) {
      centroid_norm[c] += double{fit.centroids[c * d + j]} * fit.centroids[c * d + j];
    }
    centroid_norm[c] = std::sqrt(centroid_norm[c]);
  }
  double inertia = 0;
  std::vector<uint64_t> sizes(fit.clusters, 0);
  for (size_t r = 0; r < n; ++r) {
    const float* x = matrix.data() + r * d;
    const float* c = fit.centroids.data() + labels[r] * d;
    double dot = 0, dist = 0;
    for (size_t j = 0; j < d; ++j) {
      dot += double{x[j]} * c[j];
      dist += (double{x[j]} - c[j]) * (double{x[j]} - c[j]);
    }
    inertia += dist;
    ++sizes[labels[r]];
    const double norm = centroid_norm[labels[r]];
    switch (options_.ranking) {
      case SemanticRanking::kHard:
      case SemanticRanking::kEasy:
        items[r].rank_value = 1.0 - (norm > 0 ? dot / norm : 0.0);
        break;
      case SemanticRanking::kRandom:
        items[r].rank_value = unit_interval(hash_u64(items[r].key, options_.seed));
        break;
      case SemanticRanking::kField:
        break;  // read from the record
    }
  }

  // ---- 3. Clusters, in rank order, to checksummed spill files ----
  // A cluster whose rows exceed one thread's share of memory_mb is streamed: its rows go to a
  // tile file and its pruning reads them back a block at a time (dedup/streamed_pruner.h).
  const size_t stream_above = options_.memory_bytes / static_cast<size_t>(threads);
  ClusterSpill spill(context_.spill_dir,
                     std::min(options_.partitions, std::max<size_t>(fit.clusters, 1)), d,
                     stream_above, std::max<size_t>(options_.block, 1));
  {
    std::vector<std::vector<uint32_t>> members_of(fit.clusters);
    for (size_t r = 0; r < n; ++r) members_of[labels[r]].push_back(static_cast<uint32_t>(r));
    std::vector<ClusterMember> members, ranked;
    std::vector<uint32_t> order, rows;
    for (size_t c = 0; c < fit.clusters; ++c) {
      if (members_of[c].empty()) continue;
      members.clear();
      for (uint32_t r : members_of[c]) {
        members.push_back({items[r].key, items[r].rank_value, items[r].id, items[r].excerpt});
      }
      rank_members(members, order, options_.ranking);
      ranked.clear();
      rows.clear();
      for (uint32_t i : order) {
        ranked.push_back(std::move(members[i]));
        rows.push_back(members_of[c][i]);
      }
      WINNOW_RETURN_IF_ERROR(spill.write(static_cast<uint32_t>(c), ranked, matrix.data(), rows));
      std::vector<uint32_t>().swap(members_of[c]);
    }
    WINNOW_RETURN_IF_ERROR(spill.close());
  }
  matrix.reset();
  std::vector<Meta>().swap(items);
  if (after_spill_) WINNOW_RETURN_IF_ERROR(after_spill_(spill));

  // ---- 4. Prune each cluster, partitions in parallel ----
  PruneOptions prune;
  prune.block = std::max<size_t>(options_.block, 1);
  prune.keep_one_per_group = options_.keep_one_per_group;
  prune.thresholds.push_back(1.0 - options_.eps);
  for (double e : options_.eps_sweep) prune.thresholds.push_back(1.0 - e);
  std::vector<std::vector<ItemOutcome>> outcomes(spill.partitions());
  // Clusters larger than `large` rows, and streamed ones, are pruned after the others, one at
  // a time with every thread on its column blocks (NeMo's rule; keep_one_per_group decides in
  // order), so one dominant cluster does not leave the other threads idle. The result is the
  // same either way.
  const size_t large = options_.keep_one_per_group ? SIZE_MAX : 4 * options_.block;
  auto deferred = [&](const ClusterData& data) {
    return data.tiles.has_value() || data.members.size() > large;
  };
  std::vector<uint8_t> has_large(spill.partitions(), 0);
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  Status first_error;
  // Members and rows arrive in rank order (step 3).
  auto prune_one = [&](ClusterData& data, size_t p, int prune_threads) -> Status {
    PruneOptions local = prune;
    local.threads = prune_threads;
    PruneResult result;
    if (data.tiles) {
      auto streamed = prune_streamed(*data.tiles, local, options_.memory_bytes);
      if (!streamed.is_ok()) return streamed.status();
      result = std::move(streamed).value();
    } else {
      result = prune_cluster(data.rows.data(), data.members.size(), d, local);
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
      outcomes[p].push_back(std::move(o));
    }
    return Status::ok();
  };
  auto work = [&] {
    for (size_t p = next++; p < spill.partitions(); p = next++) {
      Status status = spill.read_partition(p, [&](ClusterData& data) -> Status {
        if (deferred(data)) {
          has_large[p] = 1;
          return Status::ok();
        }
        return prune_one(data, p, 1);
      });
      if (!status.is_ok()) {
        std::lock_guard lock(error_mutex);
        if (first_error.is_ok()) first_error = status;
      }
    }
  };
  {
    std::vector<std::thread> pool;
    for (int t = 1; t < std::min<int>(threads, static_cast<int>(spill.partitions())); ++t) {
      pool.emplace_back(work);
    }
    work();
    for (std::thread& t : pool) t.join();
  }
  WINNOW_RETURN_IF_ERROR(first_error);
  for (size_t p = 0; p < spill.partitions(); ++p) {
    if (!has_large[p]) continue;
    WINNOW_RETURN_IF_ERROR(spill.read_partition(p, [&](ClusterData& data) -> Status {
      return deferred(data) ? prune_one(data, p, threads) : Status::ok();
    }));
  }
  std::vector<ItemOutcome> all;
  for (auto& part : outcomes) {
    for (auto& o : part) all.push_back(std::move(o));
    std::vector<ItemOutcome>().swap(part);
  }
  std::sort(all.begin(), all.end(),
            [](const ItemOutcome& a, const ItemOutcome& b) { return a.key < b.key; });
  const double prune_seconds = seconds_since(begin) - kmeans_seconds;

  // ---- 5. Results ----
  std::string table;
  removals_.clear();
  std::vector<uint64_t> removed_at(prune.thresholds.size(), 0);
  for (const ItemOutcome& o : all) {
    for (size_t t = 0; t < prune.thresholds.size(); ++t) removed_at[t] += (o.removed >> t) & 1;
    if (!(o.removed & 1)) continue;
    removals_.push_back({o.key, o.cluster, o.similarity, o.matched_id});
    DocKey key(o.key);
    table += fmt::format("{{\"doc_key\":{},", o.key);
    if (!key.derived()) table += fmt::format("\"shard\":{},\"row\":{},", key.shard(), key.row());
    table += "\"id\":";
    append_json_string(table, o.id);
    table += fmt::format(",\"matched_doc_key\":{},\"matched_id\":", o.matched_key);
    append_json_string(table, o.matched_id);
    table += fmt::format(",\"similarity\":{},\"cluster\":{}}}\n", o.similarity, o.cluster);
  }
  WINNOW_RETURN_IF_ERROR(write_result_file(kTable, table));
  std::sort(bad.begin(), bad.end());
  std::string bad_table;
  bad_.clear();
  for (const auto& [key, message] : bad) {
    bad_.push_back(key);
    bad_table += fmt::format("{{\"doc_key\":{},\"message\":", key);
    append_json_string(bad_table, message);
    bad_table += "}\n";
  }
  WINNOW_RETURN_IF_ERROR(write_result_file(kBadTable, bad_table));

  SemanticSummary s;
  s.options = &options_;
  s.items = n;
  s.bad = bad.size();
  s.bad_examples.clear();
  for (size_t i = 0; i < bad.size() && i < 5; ++i) s.bad_examples.push_back(bad[i].second);
  s.dimension = d;
  s.clusters = fit.clusters;
  s.iterations = fit.iterations;
  s.trained_on = fit.trained_on;
  s.sampled = sampled;
  s.objective = fit.objective.empty() ? 0 : fit.objective.back();
  s.inertia = inertia;
  s.cluster_sizes = sizes;
  s.thresholds = prune.thresholds;
  s.removed_at = removed_at;
  // Examples: the removed items nearest the threshold (the informative ones), then the key.
  std::vector<const ItemOutcome*> removed;
  for (const ItemOutcome& o : all) {
    if (o.removed & 1) removed.push_back(&o);
  }
  std::sort(removed.begin(), removed.end(), [](const ItemOutcome* a, const ItemOutcome* b) {
    if (a->similarity != b->similarity) return a->similarity < b->similarity;
    return a->key < b->key;
  });
  for (size_t i = 0; i < removed.size() && i < 8; ++i) {
    const ItemOutcome& o = *removed[i];
    s.examples.push_back(
        {o.id, o.matched_id, o.similarity, o.cluster, o.excerpt, o.matched_excerpt});
  }
  JsonWriter run(true);
  run.begin_object();
  run.key("memory_mb").value(static_cast<uint64_t>(options_.memory_bytes >> 20));
  run.key("threads").value(static_cast<uint64_t>(threads));
  run.key("embedding_log_spilled_bytes").value(log_spilled);
  run.key("cluster_spill_bytes").value(spill.bytes_written());
  run.key("streamed_clusters").value(static_cast<uint64_t>(spill.streamed().size()));
  run.key("observe_cpu_seconds").value(observe_ns_.load() / 1e9);
  run.key("kmeans_seconds").value(kmeans_seconds);
  run.key("prune_seconds").value(prune_seconds);
  run.end_object();
  s.write(summary_json_, summary_text_, summary_html_);
  std::string result_json = summary_json_;
  return write_summaries(result_json, run.take());
}

Status SemanticStep::write_summaries(const std::string& json, const std::string& run_json) {
  // summary.json holds only what the result is (the same for any threads or batch sizes); how
  // this run got there goes to stats.json alone.
  WINNOW_RETURN_IF_ERROR(write_result_file("summary.json", json + "\n"));
  WINNOW_RETURN_IF_ERROR(write_result_file("summary.txt", summary_text_));
  WINNOW_RETURN_IF_ERROR(write_result_file("summary.html", summary_html_));
  summary_json_ = json;
  while (!summary_json_.empty() && summary_json_.back() == '\n') summary_json_.pop_back();
  summary_json_.pop_back();  // the closing brace
  while (!summary_json_.empty() && summary_json_.back() == '\n') summary_json_.pop_back();
  summary_json_ += ",\n\"identify_run\": " + run_json + "\n}";
  return Status::ok();
}

Status SemanticStep::load_result(const std::string& result_dir) {
  context_.result_dir = result_dir;
  removals_.clear();
  bad_.clear();
  simdjson::dom::parser parser;
  auto table = read_whole(result_dir + "/" + kTable);
  if (!table.is_ok()) return table.status();
  size_t line_number = 0;
  std::istringstream lines(*table);
  for (std::string line; std::getline(lines, line);) {
    ++line_number;
    simdjson::dom::element row;
    uint64_t key, cluster;
    double similarity;
    std::string_view matched_id;
    if (parser.parse(line).get(row) || row["doc_key"].get(key) || row["cluster"].get(cluster) ||
        row["similarity"].get(similarity) || row["matched_id"].get(matched_id)) {
      return Status::errorf("{}/{}:{}: not a semantic dedup table row", result_dir, kTable,
                            line_number);
    }
    removals_.push_back({key, static_cast<uint32_t>(cluster), static_cast<float>(similarity),
                         std::string(matched_id)});
  }
  auto bad_table = read_whole(result_dir + "/" + kBadTable);
  if (!bad_table.is_ok()) return bad_table.status();
  std::istringstream bad_lines(*bad_table);
  line_number = 0;
  for (std::string line; std::getline(bad_lines, line);) {
    ++line_number;
    simdjson::dom::element row;
    uint64_t key;
    if (parser.parse(line).get(row) || row["doc_key"].get(key)) {
      return Status::errorf("{}/{}:{}: not a bad-embedding row", result_dir, kBadTable,
                            line_number);
    }
    bad_.push_back(key);
  }
  auto json = read_whole(result_dir + "/summary.json");
  auto text = read_whole(result_dir + "/summary.txt");
  auto html = read_whole(result_dir + "/summary.html");
  if (!json.is_ok()) return json.status();
  if (!text.is_ok()) return text.status();
  if (!html.is_ok()) return html.status();
  summary_json_ = *json;
  while (!summary_json_.empty() && summary_json_.back() == '\n') summary_json_.pop_back();
  summary_text_ = *text;
  summary_html_ = *html;
  return Status::ok();
}

const SemanticRemoval* SemanticStep::removal(uint64_t key) const {
  auto it = std::lower_bound(removals_.begin(), removals_.end(), key,
                             [](const SemanticRemoval& r, uint64_t k) { return r.key < k; });
  return it != removals_.end() && it->key == key ? &*it : nullptr;
}

bool SemanticStep::bad(uint64_t key) const {
  return std::binary_search(bad_.begin(), bad_.end(), key);
}

}  // namespace winnow
