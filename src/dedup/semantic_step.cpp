#include "dedup/semantic_step.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/doc_key.h"
#include "core/json_text.h"
#include "dedup/cluster_spill.h"
#include "dedup/semantic_clustering.h"
#include "dedup/semantic_items.h"
#include "dedup/semantic_pruning.h"
#include "dedup/semantic_report.h"
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
// them all. The fit itself is ready to divide (dedup/centroid_sums.h: exact sums each rank
// could make of its own rows); the exchange of those sums and clusters pruned on their own
// ranks are not built yet.
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
  // 1. Load, in key order, into the mapped matrix; set aside what cannot be clustered.
  SemanticItems loaded;
  WINNOW_RETURN_IF_ERROR(load_semantic_items(*log_, options_, context_.input_paths,
                                             context_.spill_dir, loaded));
  const size_t d = loaded.dimension;
  const uint64_t log_spilled = log_->spilled_bytes();
  log_.reset();
  // 2. k-means on a key-based sample, then every item to its nearest centroid.
  auto clustering = cluster_items(loaded.matrix, loaded.items, options_, threads);
  if (!clustering.is_ok()) return clustering.status();
  const double kmeans_seconds = seconds_since(begin);
  // 3. Clusters, in rank order, to checksummed spill files. A cluster whose rows exceed one
  // thread's share of memory_mb is streamed: its rows go to a tile file and its pruning reads
  // them back a block at a time (dedup/streamed_pruner.h).
  ClusterSpill spill(context_.spill_dir,
                     std::min(options_.partitions, std::max<size_t>(clustering->fit.clusters, 1)),
                     d, options_.memory_bytes / static_cast<size_t>(threads),
                     std::max<size_t>(options_.block, 1));
  WINNOW_RETURN_IF_ERROR(spill_ranked_clusters(*clustering, loaded.items, loaded.matrix,
                                               options_.ranking, spill));
  const size_t n = loaded.items.size();
  loaded.matrix.reset();
  std::vector<SemanticItem>().swap(loaded.items);
  if (after_spill_) WINNOW_RETURN_IF_ERROR(after_spill_(spill));
  // 4. Prune each cluster, partitions in parallel.
  auto outcomes = prune_spilled_clusters(spill, d, options_, threads);
  if (!outcomes.is_ok()) return outcomes.status();
  const double prune_seconds = seconds_since(begin) - kmeans_seconds;
  // 5. Results.
  WINNOW_RETURN_IF_ERROR(write_tables(*outcomes, loaded.bad));
  SemanticSummary summary = summarise(*outcomes, loaded.bad, n, d, *clustering);
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
  summary.write(summary_json_, summary_text_, summary_html_);
  std::string result_json = summary_json_;
  return write_summaries(result_json, run.take());
}

Status SemanticStep::write_tables(const std::vector<ItemOutcome>& outcomes,
                                  const std::vector<std::pair<uint64_t, std::string>>& bad) {
  std::string table;
  removals_.clear();
  for (const ItemOutcome& o : outcomes) {
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
  std::string bad_table;
  bad_.clear();
  for (const auto& [key, message] : bad) {
    bad_.push_back(key);
    bad_table += fmt::format("{{\"doc_key\":{},\"message\":", key);
    append_json_string(bad_table, message);
    bad_table += "}\n";
  }
  return write_result_file(kBadTable, bad_table);
}

SemanticSummary SemanticStep::summarise(
    const std::vector<ItemOutcome>& outcomes,
    const std::vector<std::pair<uint64_t, std::string>>& bad, size_t items, size_t dimension,
    const SemanticClustering& clustering) const {
  SemanticSummary s;
  s.options = &options_;
  s.items = items;
  s.bad = bad.size();
  for (size_t i = 0; i < bad.size() && i < 5; ++i) s.bad_examples.push_back(bad[i].second);
  s.dimension = dimension;
  s.clusters = clustering.fit.clusters;
  s.iterations = clustering.fit.iterations;
  s.trained_on = clustering.fit.trained_on;
  s.sampled = clustering.sampled;
  s.objective = clustering.fit.objective.empty() ? 0 : clustering.fit.objective.back();
  s.inertia = clustering.inertia;
  s.cluster_sizes = clustering.sizes;
  s.thresholds = semantic_prune_options(options_).thresholds;
  s.removed_at.assign(s.thresholds.size(), 0);
  std::vector<const ItemOutcome*> removed;
  for (const ItemOutcome& o : outcomes) {
    for (size_t t = 0; t < s.thresholds.size(); ++t) s.removed_at[t] += (o.removed >> t) & 1;
    if (o.removed & 1) removed.push_back(&o);
  }
  // Examples: the removed items nearest the threshold (the informative ones), then the key.
  std::sort(removed.begin(), removed.end(), [](const ItemOutcome* a, const ItemOutcome* b) {
    if (a->similarity != b->similarity) return a->similarity < b->similarity;
    return a->key < b->key;
  });
  for (size_t i = 0; i < removed.size() && i < 8; ++i) {
    const ItemOutcome& o = *removed[i];
    s.examples.push_back(
        {o.id, o.matched_id, o.similarity, o.cluster, o.excerpt, o.matched_excerpt});
  }
  return s;
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
