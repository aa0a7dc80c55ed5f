#pragma once
// OutputLayout: where each shard's files go in the output folder.
//   OUT/<name>.jsonl[.gz|.zst]           kept documents (or <name>.parquet: io/output_format.h,
//                                        or <name>.bin + <name>.idx: io/megatron_dataset.h)
//   OUT/rejected/<name>.jsonl[.gz|.zst]  dropped documents with their reason (or .parquet; JSON
//                                        Lines under megatron)
//   OUT/errors/<name>.jsonl              records that could not be read
//   OUT/files/<name>[-<key>.<ext>]        kept media items' bytes (image input)
//   OUT/clips/<id>.mp4, OUT/metas/<id>.json, OUT/previews/<id>.jpg, OUT/summary.json
//                                        kept video clips (video input), the anchor's layout
//   OUT/global/<stage>/                  a global step's result (pipeline/global_passes.h)
//   OUT/_work/                           batches stored between passes, only while a run lasts
//   OUT/_done/<name>.json                completion marker, written last
//   OUT/stats.json                       the run's accounting
//   OUT/metrics.jsonl                    per-step metrics, one line per interval (live)
//   OUT/report.html                      the run's charts, self-contained
// <name> is the input file's stem (with -r00003 for a range of a split Parquet file:
// io/parquet_ranges.h); shards whose names collide get their shard index prefixed.
#include <set>
#include <string>
#include <vector>

#include "core/status.h"
#include "io/input_files.h"
#include "io/output_format.h"
#include "io/output_names.h"
#include "io/shard_output.h"

namespace winnow {

class OutputLayout {
 public:
  OutputLayout(std::string dir, const std::vector<InputFile>& inputs, const OutputFormat& format);

  // Creates the folders; with `overwrite`, first removes what a previous run wrote (never the
  // user's own files in the top folder), global/'s results included but those of the stages
  // named in `keep_global` (`dedup remove` reads them). Always removes temporary files a
  // killed run left.
  Status prepare(bool overwrite, const std::set<std::string>& keep_global = {}) const;

  const std::string& dir() const { return dir_; }
  const ShardPaths& shard(size_t index) const { return shards_[index]; }
  std::string stats_path() const { return in_dir(output_names::kStatsFile); }
  std::string metrics_path() const { return in_dir(output_names::kMetricsFile); }
  std::string report_path() const { return in_dir(output_names::kReportFile); }
  std::string summary_path() const { return in_dir(output_names::kSummaryFile); }
  std::string done_dir() const { return in_dir(output_names::kDoneDir); }
  std::string rejected_dir() const { return in_dir(output_names::kRejectedDir); }
  std::string errors_dir() const { return in_dir(output_names::kErrorsDir); }
  std::string files_dir() const { return in_dir(output_names::kFilesDir); }
  std::string work_dir() const { return in_dir(output_names::kWorkDir); }
  std::string global_dir() const { return in_dir(output_names::kGlobalDir); }

 private:
  std::string in_dir(std::string_view name) const { return dir_ + "/" + std::string(name); }

  std::string dir_;
  std::vector<ShardPaths> shards_;
};

}  // namespace winnow
