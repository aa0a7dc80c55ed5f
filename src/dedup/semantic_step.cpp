#include "dedup/semantic_step.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/doc_key.h"
#include "dedup/byte_codec.h"
#include "core/json_text.h"
#include "dedup/cluster_spill.h"
#include "dedup/semantic_clustering.h"
#include "dedup/semantic_items.h"
#include "dedup/semantic_owners.h"
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
  checkpoint_.reset();
  resumed_ = false;
  checkpoint_status_ = Status::ok();
  if (!options_.checkpoint || context.checkpoint_dir.empty()) return Status::ok();
  dist::Comm& comm = context.comm ? *context.comm : dist::local_comm();
  checkpoint_ =
      std::make_unique<IdentifyCheckpoint>(context.checkpoint_dir, context.fingerprint, comm);
  resumed_ = checkpoint_->complete("records");
  return resumed_ ? Status::ok() : checkpoint_->begin_writing();
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
  if (status.is_ok() && checkpoint_) {
    // The log's entries as they are: the checkpoint's records phase holds no bucket records.
    Status saved = checkpoint_->add(nullptr, 0, out, batch.size());
    if (!saved.is_ok()) {
      std::lock_guard lock(checkpoint_mutex_);
      if (checkpoint_status_.is_ok()) checkpoint_status_ = saved;
    }
  }
  observe_ns_ += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begin)
          .count());
  return status;
}

Status SemanticStep::settle_checkpoint(dist::Comm& comm) {
  if (!checkpoint_) return Status::ok();
  if (resumed_) {
    return checkpoint_->replay(
        [this](const BucketRecord*, size_t, std::string_view entries, uint64_t) {
          return log_->add(entries);
        });
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, checkpoint_status_));
  WINNOW_RETURN_IF_ERROR(checkpoint_->finish_writing());
  return options_.after_checkpoint ? dist::agree(comm, options_.after_checkpoint("records"))
                                   : Status::ok();
}

Status SemanticStep::write_result_file(const std::string& name, const std::string& content) const {
  const bool writer = !context_.comm || context_.comm->rank() == 0;
  return writer ? AtomicFile::write_whole(context_.result_dir + "/" + name, content) : Status::ok();
}

// Across ranks each rank loads, assigns and sends out only the items of its own shards: the
// fit exchanges exact centroid sums (dedup/kmeans.h), each cluster is ranked and pruned by one
// owner rank (dedup/semantic_owners.h), and only the verdicts, the removed items' table rows and
// the bad items travel back. One process runs the same phases with every collective the
// identity.
Status SemanticStep::finish_identify() {
  const auto begin = std::chrono::steady_clock::now();
  const int threads = std::max(1, context_.threads);
  dist::Comm& comm = context_.comm ? *context_.comm : dist::local_comm();
  const bool divided = comm.size() > 1;
  WINNOW_RETURN_IF_ERROR(settle_checkpoint(comm));
  // 1. Load, in key order, into the mapped matrix; set aside what cannot be clustered.
  SemanticOptions load_options = options_;
  auto dimension = agreed_dimension(*log_, options_, comm);
  if (!dimension.is_ok()) return dimension.status();
  load_options.dimension = *dimension;
  SemanticItems loaded;
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, load_semantic_items(*log_, load_options,
                                                               context_.input_paths,
                                                               context_.spill_dir, loaded)));
  const size_t d = loaded.dimension;
  const uint64_t log_spilled = log_->spilled_bytes();
  log_.reset();
  rows_held_ = loaded.items.size();
  // 2. k-means on a key-based sample, then every item to its nearest centroid.
  auto clustering = cluster_items(loaded.matrix, loaded.items, options_, threads, comm);
  if (!clustering.is_ok()) return clustering.status();
  const double kmeans_seconds = seconds_since(begin);
  // 3. Clusters, in rank order, to checksummed spill files (across ranks: each at its owner).
  // A cluster whose rows exceed one thread's share of memory_mb is streamed: its rows go to a
  // tile file and its pruning reads them back a block at a time (dedup/streamed_pruner.h).
  ClusterSpill spill(context_.spill_dir,
                     std::min(options_.partitions, std::max<size_t>(clustering->fit.clusters, 1)),
                     d, options_.memory_bytes / static_cast<size_t>(threads),
                     std::max<size_t>(options_.block, 1));
  OwnedClusters owned;
  if (divided) {
    auto sent = send_clusters_to_owners(comm, *clustering, loaded.items, loaded.matrix,
                                        options_.ranking,
                                        options_.memory_bytes / kClusterRoundShare, spill);
    if (!sent.is_ok()) return sent.status();
    owned = std::move(sent).value();
    rows_held_ += owned.peak_round_rows;  // its own rows stay mapped while the rounds run
  } else {
    WINNOW_RETURN_IF_ERROR(spill_ranked_clusters(*clustering, loaded.items, loaded.matrix,
                                                 options_.ranking, spill));
  }
  const size_t n = clustering->items;
  loaded.matrix.reset();
  std::vector<SemanticItem>().swap(loaded.items);
  if (after_spill_) WINNOW_RETURN_IF_ERROR(dist::agree(comm, after_spill_(spill)));
  // 4. Prune each cluster, partitions in parallel; the verdicts to the ranks that need them.
  auto outcomes = prune_spilled_clusters(spill, d, options_, threads);
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, outcomes.status()));
  const size_t thresholds = semantic_prune_options(options_).thresholds.size();
  auto verdicts = route_verdicts(comm, *outcomes, divided ? &owned.origins : nullptr, thresholds);
  if (!verdicts.is_ok()) return verdicts.status();
  const double prune_seconds = seconds_since(begin) - kmeans_seconds;
  // 5. Results: this rank's removals and bad items; rank 0 writes the tables and summaries.
  removals_.clear();
  for (const ItemOutcome& o : verdicts->own_removed) {
    removals_.push_back({o.key, o.cluster, o.similarity, o.matched_id});
  }
  bad_.clear();
  for (const auto& item : loaded.bad) bad_.push_back(item.first);
  auto all_bad = gather_bad(comm, loaded.bad);
  if (!all_bad.is_ok()) return all_bad.status();
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, write_tables(verdicts->all_removed, *all_bad)));
  // A resumed rank replayed other ranks' items, not its own shards': the writing pass takes
  // every removal and bad item from the tables, as after load_result().
  if (resumed_) WINNOW_RETURN_IF_ERROR(dist::agree(comm, load_tables(context_.result_dir)));
  PairChooser chooser(report_pairs_, report_seed_);
  for (const ItemOutcome& o : verdicts->all_removed) {
    chooser.offer(o.key, o.matched_key, o.similarity);
  }
  capture_.choose(chooser.chosen());
  if (comm.rank() == 0) {
    SemanticSummary summary =
        summarise(verdicts->removed_at, verdicts->all_removed, *all_bad, n, d, *clustering);
    summary.write(summary_json_, summary_text_, summary_html_);
  }
  summary_json_ = dist::from_rank0(comm, summary_json_);
  summary_text_ = dist::from_rank0(comm, summary_text_);
  summary_html_ = dist::from_rank0(comm, summary_html_);
  JsonWriter run(true);
  run.begin_object();
  run.key("memory_mb").value(static_cast<uint64_t>(options_.memory_bytes >> 20));
  run.key("threads").value(static_cast<uint64_t>(threads));
  run.key("embedding_log_spilled_bytes").value(log_spilled);
  run.key("cluster_spill_bytes").value(spill.bytes_written());
  run.key("streamed_clusters").value(static_cast<uint64_t>(spill.streamed().size()));
  run.key("rows_held").value(rows_held_);
  run.key("cluster_rounds").value(owned.rounds);
  run.key("observe_cpu_seconds").value(observe_ns_.load() / 1e9);
  if (checkpoint_) {
    run.key("checkpoint").value(resumed_ ? "resumed from the records" : "written");
    run.key("checkpoint_bytes").value(dist::sum_over_ranks(comm, {checkpoint_->bytes()})[0]);
  }
  run.key("kmeans_seconds").value(kmeans_seconds);
  run.key("prune_seconds").value(prune_seconds);
  run.end_object();
  std::string result_json = summary_json_;
  return dist::agree(comm, write_summaries(result_json, run.take()));
}

Result<std::vector<std::pair<uint64_t, std::string>>> SemanticStep::gather_bad(
    dist::Comm& comm, const std::vector<std::pair<uint64_t, std::string>>& mine) {
  if (comm.size() == 1) return mine;
  std::vector<std::string> outgoing(static_cast<size_t>(comm.size()));
  BytePacker out(outgoing[0]);
  for (const auto& [key, message] : mine) out.put(key).put_bytes(message);
  std::vector<std::pair<uint64_t, std::string>> all;
  bool whole = true;
  for (const std::string& part : comm.all_to_all(std::move(outgoing))) {
    ByteUnpacker in(part);
    while (!in.done()) {
      const uint64_t key = in.get<uint64_t>();
      all.emplace_back(key, std::string(in.get_bytes()));
    }
    whole = whole && !in.failed();
  }
  WINNOW_RETURN_IF_ERROR(dist::agree(
      comm, whole ? Status::ok() : Status::error("semantic dedup: bad items arrived cut short")));
  std::sort(all.begin(), all.end());
  return all;
}

Status SemanticStep::write_tables(const std::vector<ItemOutcome>& removed,
                                  const std::vector<std::pair<uint64_t, std::string>>& bad) {
  std::string table;
  for (const ItemOutcome& o : removed) {
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
  for (const auto& [key, message] : bad) {
    bad_table += fmt::format("{{\"doc_key\":{},\"message\":", key);
    append_json_string(bad_table, message);
    bad_table += "}\n";
  }
  return write_result_file(kBadTable, bad_table);
}

SemanticSummary SemanticStep::summarise(
    const std::vector<uint64_t>& removed_at, const std::vector<ItemOutcome>& removed_items,
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
  s.removed_at = removed_at;
  std::vector<const ItemOutcome*> removed;
  for (const ItemOutcome& o : removed_items) removed.push_back(&o);
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
  WINNOW_RETURN_IF_ERROR(load_tables(result_dir));
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

Status SemanticStep::load_tables(const std::string& result_dir) {
  removals_.clear();
  bad_.clear();
  PairChooser chooser(report_pairs_, report_seed_);
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
    uint64_t matched_key = 0;
    if (!row["matched_doc_key"].get(matched_key)) {
      chooser.offer(key, matched_key, static_cast<float>(similarity));
    }
  }
  capture_.choose(chooser.chosen());
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
  return Status::ok();
}

void SemanticStep::note_for_report(const DocBatch& batch, size_t i) {
  const uint64_t key = batch.key(i).value();
  if (capture_.wants(key)) capture_.keep(key, capture_item(batch, i));
}

std::vector<ReportPair> SemanticStep::report_pairs() const {
  return capture_.report_pairs([](const CapturedItem&, const CapturedItem&, const ChosenPair& p) {
    return std::pair<std::string, double>("cosine", p.value);
  });
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
