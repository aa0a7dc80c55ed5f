#pragma once
// ShardWriter: the writing pass's sink, the consuming last part (`write`) of its last step.
// Batches arrive from any worker in any order; each shard's are written in their read order
// (a shard's batches wait until the one before has been written), so output bytes never depend
// on threads or batch sizes. Different shards are written at the same time by different
// workers; one shard by one worker at a time (whoever brings the batch it waits for writes it
// and any that were waiting behind it), compression included, within the CPU budget.
// A shard's end marker commits its files and writes its completion marker, last.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/reason_table.h"
#include "core/run_counts.h"
#include "io/input_files.h"
#include "io/input_reader.h"
#include "io/shard_output.h"
#include "pipeline/drop_examples.h"
#include "pipeline/output_layout.h"
#include "pipeline/clip_timelines.h"
#include "pipeline/report_sample.h"
#include "pipeline/shard_source.h"
#include "pipeline/stage_runner.h"

namespace winnow {

struct ShardWriterOptions {
  OutputFormat format;
  int compression_level = 0;
  uint64_t max_file_bytes = 0;
  uint64_t max_tar_bytes = 0;
  std::string fingerprint;  // written into each completion marker
  ItemKind input_kind = ItemKind::kDocument;
  std::string text_field = "text";  // for Parquet output's schema
  std::string id_field = "id";
  InputFormat input_format = InputFormat::kAuto;  // which inputs are Parquet
  // The columns of the run's Parquet inputs (io/parquet_schemas.h), for their shards' tables.
  std::optional<TableColumns> parquet_columns;
  // Threads a shard's compressor may add to its writer's, while the run's budget has them free.
  CompressionThreads compression_threads;
  // The report's picture sample: at most this many items per "stage/reason" and of the kept
  // (report.pictures_per_reason; 0: none), chosen by `seed` (pipeline/report_sample.h).
  size_t pictures_per_reason = 0;
  uint64_t seed = 42;
};

class ShardWriter {
 public:
  ShardWriter(const OutputLayout& layout, const std::vector<InputFile>& inputs,
              const ReasonTable& reasons, ShardSource& source, ShardWriterOptions options);
  ~ShardWriter();

  StageRunner::Part write_part();
  // Before the pass starts (the run's budget exists once the pass is built).
  void set_compression_threads(CompressionThreads threads) {
    options_.compression_threads = threads;
  }

  // After the pass: the counts of the shards it completed, how many, and documents so far.
  RunCounts completed_counts() const;
  size_t completed_shards() const;
  uint64_t documents_written() const { return documents_.load(); }
  const DropExamples& examples() const { return examples_; }
  const ReportSample& pictures() const { return pictures_; }
  const ClipTimelines& timelines() const { return timelines_; }
  // Drops unfinished shards (their temporary files go); call once no worker runs.
  void abandon();

 private:
  struct Shard {
    std::mutex mutex;
    std::map<uint64_t, BatchPtr> pending;  // arrived before their turn
    uint64_t next = 0;
    bool draining = false;  // a worker is writing this shard's batches now
    std::unique_ptr<ShardOutput> output;
    RunCounts counts;
  };
  Status consume(BatchPtr batch);
  std::unique_ptr<ShardOutput> make_output(uint32_t index) const;
  Status write(Shard& shard, DocBatch& batch);
  Status finish(uint32_t index, Shard& shard);
  Shard& shard(uint32_t index);

  const OutputLayout& layout_;
  const std::vector<InputFile>& inputs_;
  const ReasonTable& reasons_;
  ShardSource& source_;
  ShardWriterOptions options_;

  mutable std::mutex mutex_;  // guards shards_ and the completed counts
  std::map<uint32_t, std::unique_ptr<Shard>> shards_;
  RunCounts completed_;
  size_t completed_shards_ = 0;
  DropExamples examples_;
  ReportSample pictures_;
  ClipTimelines timelines_;  // as many sources as pictures per reason
  std::atomic<uint64_t> documents_{0};
};

}  // namespace winnow
