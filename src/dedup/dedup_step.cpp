#include "dedup/dedup_step.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/json_text.h"
#include "dedup/field_number.h"
#include "io/atomic_file.h"

namespace winnow {

DedupStep::DedupStep(std::unique_ptr<BucketKeyer> keyer, DedupStepOptions options)
    : keyer_(std::move(keyer)),
      options_(std::move(options)),
      survivor_field_(options_.survivor_field) {}

std::string DedupStep::table_name(TableFormat format) {
  return format == TableFormat::kJsonl ? "duplicates.jsonl" : "duplicates.bin";
}

Status DedupStep::begin_identify(const GlobalStepContext& context) {
  context_ = context;
  result_dir_ = context.result_dir;
  ClustererOptions options;
  options.spill_dir = context.spill_dir;
  options.memory_bytes = options_.memory_bytes;
  options.threads = context.threads;
  options.partitions = options_.partitions;
  options.survivor = options_.survivor;
  options.links = verifying() ? LinkShape::kAnchors : LinkShape::kChain;
  if (keyer_->verifies_links()) options.links = LinkShape::kAllPairs;
  options.groups = keyer_->groups();
  options.comm = context.comm;
  options.report_pairs = report_pairs_;
  options.report_seed = report_seed_;
  pass_ = 0;
  clusterer_ = std::make_unique<DuplicateClusterer>(options);
  checkpoint_.reset();
  resumed_ = false;
  checkpoint_status_ = Status::ok();
  if (!options_.checkpoint || verifying() || context.checkpoint_dir.empty()) return Status::ok();
  dist::Comm& comm = context.comm ? *context.comm : dist::local_comm();
  checkpoint_ =
      std::make_unique<IdentifyCheckpoint>(context.checkpoint_dir, context.fingerprint, comm);
  resumed_ = checkpoint_->complete("records");
  resumed_from_links_ = resumed_ && checkpoint_->complete("links");
  return resumed_ ? Status::ok() : checkpoint_->begin_writing();
}

double DedupStep::metric(const DocBatch& batch, size_t i) const {
  switch (options_.survivor) {
    case SurvivorRule::kSmallestKey:
      return 0;
    case SurvivorRule::kLongestText:
      return static_cast<double>(batch.text(i).size());
    case SurvivorRule::kHighestField:
      break;
  }
  return survivor_field_.of(batch, i);
}

Status DedupStep::observe(const DocBatch& batch) {
  auto begin = std::chrono::steady_clock::now();
  if (pass_ > 0) {
    // Verification pass: the sets of this rank's documents that some candidate link touches.
    const std::vector<uint64_t>& linked = clusterer_->linked_documents();
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      auto it = std::lower_bound(linked.begin(), linked.end(), batch.key(i).value());
      if (it == linked.end() || *it != batch.key(i).value()) continue;
      keyer_->item_verification_set(batch, i, shingle_sets_[it - linked.begin()]);
    }
    observe_ns_ += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::steady_clock::now() - begin)
                                             .count());
    return Status::ok();
  }
  thread_local std::vector<BucketRecord> records;
  thread_local std::string infos;
  records.clear();
  infos.clear();
  thread_local std::vector<size_t> rows;
  thread_local std::vector<uint8_t> gave;
  rows.clear();
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kept(i)) rows.push_back(i);
  }
  keyer_->add_batch_records(batch, rows, records, gave);
  uint64_t documents = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!gave[r]) continue;
    const size_t i = rows[r];
    ++documents;
    DocInfoLog::serialize(infos, batch.key(i).value(), metric(batch, i), batch.id(i));
  }
  Status status = clusterer_->add(records.data(), records.size(), infos, documents);
  if (status.is_ok() && checkpoint_) {
    Status saved = checkpoint_->add(records.data(), records.size(), infos, documents);
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

bool DedupStep::another_pass() {
  if (!verifying() || pass_ > 0) return false;
  pass_status_ = clusterer_->compute_links();
  if (!pass_status_.is_ok()) return false;  // on every rank; reported by finish_identify()
  shingle_sets_.assign(clusterer_->linked_documents().size(), {});
  pass_ = 1;
  // Every rank takes the pass when any has a linked document to read.
  dist::Comm& comm = context_.comm ? *context_.comm : dist::local_comm();
  return dist::sum_over_ranks(comm, {shingle_sets_.size()})[0] > 0;
}


// The read pass's records from a checkpoint (a resumed run), or into it (a first run, once
// every rank has read its shards).
Status DedupStep::settle_checkpoint(dist::Comm& comm) {
  if (!checkpoint_) return Status::ok();
  auto stop_after = [&](const std::string& phase) {
    return options_.after_checkpoint ? dist::agree(comm, options_.after_checkpoint(phase))
                                     : Status::ok();
  };
  if (resumed_from_links_) {
    // The links and the document entries: the connected components start at once.
    std::vector<std::pair<uint64_t, uint64_t>> links;
    WINNOW_RETURN_IF_ERROR(checkpoint_->load_links(links, [this](std::string_view block) {
      uint64_t documents = 0;
      if (!DocInfoLog::visit_serialized(block, [&](uint64_t, double, std::string_view) {
            ++documents;
          })) {
        return Status::error("checkpoint: a block of document entries is cut short");
      }
      return clusterer_->add_documents(block, documents);
    }));
    checkpoint_bytes_ = dist::sum_over_ranks(comm, {checkpoint_->bytes()})[0];
    return clusterer_->resume_links(std::move(links));
  }
  if (resumed_) {
    WINNOW_RETURN_IF_ERROR(checkpoint_->replay([this](const BucketRecord* records, size_t n,
                                                      std::string_view infos, uint64_t documents) {
      return clusterer_->add(records, n, infos, documents);
    }));
  } else {
    WINNOW_RETURN_IF_ERROR(dist::agree(comm, checkpoint_status_));
    WINNOW_RETURN_IF_ERROR(checkpoint_->finish_writing());
    WINNOW_RETURN_IF_ERROR(stop_after("records"));
  }
  checkpoint_bytes_ = dist::sum_over_ranks(comm, {checkpoint_->bytes()})[0];
  // The shuffle and the linking, then their links kept as the second phase.
  WINNOW_RETURN_IF_ERROR(clusterer_->compute_links());
  WINNOW_RETURN_IF_ERROR(checkpoint_->save_links(
      clusterer_->links(), [this](const std::function<Status(std::string_view)>& visit) {
        return clusterer_->for_each_document_block(visit);
      }));
  return stop_after("links");
}

Status DedupStep::finish_identify() {
  WINNOW_RETURN_IF_ERROR(pass_status_);
  auto begin = std::chrono::steady_clock::now();
  dist::Comm& comm = context_.comm ? *context_.comm : dist::local_comm();
  WINNOW_RETURN_IF_ERROR(settle_checkpoint(comm));
  observe_ns_total_ = dist::sum_over_ranks(comm, {observe_ns_.load()})[0];
  DuplicateClusterer::LinkCheck check;
  if (keyer_->verifies_links()) {
    check = [this](const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
      return keyer_->link_holds(a, b);
    };
  } else if (options_.jaccard_threshold > 0) {
    check = [threshold = options_.jaccard_threshold](const std::vector<uint32_t>& a,
                                                     const std::vector<uint32_t>& b) {
      const double similarity = set_jaccard(a, b);
      return similarity > 0 && similarity >= threshold;
    };
  }
  const TableOutput table{context_.result_dir + "/" + table_name(options_.table_format),
                          options_.table_format};
  auto result = clusterer_->finish(table, pass_ > 0 ? &shingle_sets_ : nullptr, check);
  std::vector<std::vector<uint32_t>>().swap(shingle_sets_);
  if (!result.is_ok()) return result.status();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  ClusterStats stats = clusterer_->stats();
  clusterer_.reset();
  make_summaries(result->component_sizes, result->members, result->removed, &stats, seconds);
  removal_ = std::move(result->removals);
  if (resumed_) {
    // A rank now holds the removals of the documents it replayed, not of its own shards: the
    // writing pass takes them all from the table, as after load_result().
    auto whole = DuplicatesTable::read(table.path);
    if (!whole.is_ok()) return whole.status();
    removal_ = whole->removal_set();
  }
  capture_.choose(std::move(result->report_pairs));
  // The table is written; one rank writes the summary.
  if (comm.rank() != 0) return Status::ok();
  return AtomicFile::write_whole(context_.result_dir + "/summary.json", result_json_ + "\n");
}

void DedupStep::make_summaries(const std::map<uint64_t, uint64_t>& sizes, uint64_t members,
                               uint64_t removed, const ClusterStats* stats, double seconds) {
  uint64_t groups = 0;
  for (const auto& [size, count] : sizes) groups += count;
  JsonWriter out(true);
  out.begin_object();
  out.key("method").value(options_.kind);
  out.key("parameters").begin_object();
  keyer_->describe(out);
  out.key("survivor")
      .value(options_.survivor == SurvivorRule::kSmallestKey   ? "smallest_key"
             : options_.survivor == SurvivorRule::kLongestText ? "longest"
                                                               : "field");
  if (!options_.survivor_field.empty()) out.key("survivor_field").value(options_.survivor_field);
  if (options_.jaccard_threshold > 0) {
    out.key("jaccard_threshold").value(options_.jaccard_threshold);
  }
  out.end_object();
  out.key("duplicate_groups").value(groups);
  out.key("documents_in_groups").value(members);
  out.key("to_remove").value(removed);
  out.key("component_sizes").begin_object();
  for (const auto& [size, count] : sizes) out.key(std::to_string(size)).value(count);
  out.end_object();
  out.key("table").value(table_name(options_.table_format));
  out.end_object();
  // summary.json holds only what the result is (the same whatever the threads, batch sizes or
  // memory budget); how this run got there goes to stats.json alone.
  result_json_ = out.take();
  summary_json_ = result_json_;
  if (stats) {
    JsonWriter run(true);
    run.begin_object();
    run.key("memory_mb").value(static_cast<uint64_t>(options_.memory_bytes >> 20));
    run.key("documents_observed").value(stats->documents);
    run.key("bucket_records").value(stats->spill.records);
    run.key("shared_buckets").value(stats->shared_buckets);
    run.key("links").value(stats->links);
    run.key("links_by_rank").begin_array();
    for (uint64_t links : stats->links_by_rank) run.value(links);
    run.end_array();
    run.key("propagation_rounds").value(stats->propagation_rounds);
    if (options_.jaccard_threshold > 0) {
      run.key("links_below_jaccard_threshold").value(stats->links_rejected);
    } else if (keyer_->verifies_links()) {
      run.key("links_rejected").value(stats->links_rejected);
    }
    if (keyer_->groups() == GroupShape::kStars) {
      run.key("kept_unmatched_to_survivor").value(stats->kept_unmatched);
    }
    run.key("spilled_bytes").value(stats->spill.spilled_bytes + stats->doc_info_spilled_bytes);
    run.key("spill_flushes").value(stats->spill.flushes);
    run.key("partition_splits").value(stats->spill.splits);
    run.key("observe_cpu_seconds").value(observe_ns_total_ / 1e9);
    if (!stats->shuffle_bytes_by_rank.empty()) {
      run.key("ranks").value(static_cast<uint64_t>(stats->shuffle_bytes_by_rank.size()));
      run.key("shuffle_bytes_by_rank").begin_array();
      for (uint64_t bytes : stats->shuffle_bytes_by_rank) run.value(bytes);
      run.end_array();
      run.key("shuffle_rounds").value(stats->shuffle_rounds);
    }
    run.key("cluster_seconds").value(seconds);
    if (checkpoint_) {
      run.key("checkpoint").value(resumed_from_links_ ? "resumed from the links"
                                  : resumed_                ? "resumed from the records"
                                                            : "written");
      run.key("checkpoint_bytes").value(checkpoint_bytes_);
    }
    run.end_object();
    summary_json_.pop_back();  // the closing brace
    while (!summary_json_.empty() && summary_json_.back() == '\n') summary_json_.pop_back();
    summary_json_ += ",\n\"identify_run\": " + run.take() + "\n}";
  }

  std::string histogram;
  int shown = 0;
  for (const auto& [size, count] : sizes) {
    if (++shown > 8) {
      histogram += " ...";
      break;
    }
    histogram += fmt::format("{}{}x{}", histogram.empty() ? "" : " ", count, size);
  }
  summary_text_ = fmt::format(
      "{} documents in {} groups of {}duplicates, {} to remove{}\n      {}\n      table: {}\n",
      members, groups, keyer_->exact() ? "exact " : "near-", removed,
      histogram.empty() ? "" : " (groups x size: " + histogram + ")", keyer_->describe_text(),
      result_dir_ + "/" + table_name(options_.table_format));
}

namespace {

// The report's pairs from a loaded table: each group's removed members with its survivor
// (entries are sorted by group, so one walk finds each group's survivor).
std::vector<ChosenPair> choose_report_pairs(const DuplicatesTable& table, size_t count,
                                            uint64_t seed) {
  PairChooser chooser(count, seed);
  if (count == 0) return {};
  const std::vector<DuplicateEntry>& entries = table.entries;
  for (size_t begin = 0; begin < entries.size();) {
    size_t end = begin;
    uint64_t survivor = entries[begin].doc;
    for (; end < entries.size() && entries[end].component == entries[begin].component; ++end) {
      if (entries[end].survivor) survivor = entries[end].doc;
    }
    for (size_t i = begin; i < end; ++i) {
      if (!entries[i].survivor) chooser.offer(entries[i].doc, survivor);
    }
    begin = end;
  }
  return chooser.chosen();
}

}  // namespace

void DedupStep::note_for_report(const DocBatch& batch, size_t i) {
  const uint64_t key = batch.key(i).value();
  if (!capture_.wants(key)) return;
  CapturedItem item = capture_item(batch, i);
  keyer_->item_verification_set(batch, i, item.set);
  capture_.keep(key, std::move(item));
}

std::vector<ReportPair> DedupStep::report_pairs() const {
  return capture_.report_pairs(
      [this](const CapturedItem& survivor, const CapturedItem& removed, const ChosenPair&) {
        return keyer_->pair_measure(survivor.set, removed.set);
      });
}

Status DedupStep::load_result(const std::string& result_dir) {
  std::string path = result_dir + "/" + table_name(options_.table_format);
  auto table = DuplicatesTable::read(path);
  if (!table.is_ok()) return table.status();
  removal_ = table->removal_set();
  capture_.choose(choose_report_pairs(*table, report_pairs_, report_seed_));
  result_dir_ = result_dir;
  make_summaries(table->component_sizes(), table->entries.size(), table->removed(), nullptr, 0);
  // The stored summary keeps the identify pass's own figures (spills, timings).
  std::ifstream in(result_dir + "/summary.json");
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    summary_json_ = text.str();
    while (!summary_json_.empty() && summary_json_.back() == '\n') summary_json_.pop_back();
  }
  return Status::ok();
}

}  // namespace winnow
