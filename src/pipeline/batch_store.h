#pragma once
// BatchStore: a pass's batches stored at one point of the pipeline (before a global step), so
// that the passes after it begin there instead of reading the input and running the stages
// before that point again (`materialize:` in the pipeline file). One work file per shard under
// OUT/_work/<point>/ (io/stored_batches.h: zstd, a checksum per batch), complete once the pass
// has ended (commit()), removed when the run ends.
//
// `auto` decides while storing: after a few batches it compares what the stages before the
// point cost (their measured busy time, measure_upstream_with) with what storing costs
// (reading back costs about as much again); when storing is not the cheaper, it stops and the
// store is not used (the next pass reads the input and runs those stages again).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/input_files.h"
#include "io/stored_batches.h"
#include "pipeline/pass_origin.h"
#include "pipeline/pipeline_config.h"
#include "pipeline/stage_runner.h"

namespace winnow {

class BatchStore {
 public:
  // `shards`: how many the input has; `first_stage`: the stage the passes after it begin with.
  BatchStore(std::string dir, size_t shards, size_t first_stage, std::string point_name,
             MaterializeMode mode);
  ~BatchStore();
  // Before the storing pass runs: the busy time so far of the stages before the point.
  void measure_upstream_with(std::function<uint64_t()> upstream_busy_ns) {
    upstream_busy_ns_ = std::move(upstream_busy_ns);
  }

  // A part for the storing pass, after the stages before the point: stores each batch.
  StageRunner::Part store_part();
  // After the pass: every shard's file under its final name. Not usable when `auto` gave up.
  Status commit();
  bool usable() const { return committed_ && !given_up_.load(); }
  PassOrigin origin() const;
  uint64_t stored_bytes() const;
  void remove();  // the files and the folder

  static constexpr uint64_t kBatchesBeforeDeciding = 8;

 private:
  Status store(const DocBatch& batch);
  void decide();

  std::string dir_;
  size_t first_stage_;
  std::string point_name_;
  MaterializeMode mode_;
  std::function<uint64_t()> upstream_busy_ns_;
  std::vector<InputFile> files_;  // by shard index
  std::mutex mutex_;              // guards writers_
  std::map<uint32_t, std::unique_ptr<StoredBatchWriter>> writers_;
  std::atomic<uint64_t> batches_{0};
  std::atomic<uint64_t> store_ns_{0};
  std::atomic<bool> decided_{false};
  std::atomic<bool> given_up_{false};
  bool committed_ = false;
};

}  // namespace winnow
