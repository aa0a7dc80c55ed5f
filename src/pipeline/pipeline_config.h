#pragma once
// PipelineConfig: a pipeline YAML file, fully checked when loaded: unknown keys, wrong types
// and unknown stages are errors that name the file and line, before any data is read.
//
// Every key, its values and default: config_keys.cpp declares them (check_keys accepts only
// those) and docs/reference.md is printed from the same table by `winnow reference`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/stage.h"
#include "core/status.h"
#include "io/input_files.h"
#include "io/input_reader.h"
#include "io/output_format.h"
#include "pipeline/autoscaler.h"

namespace winnow {

enum class OnError { kFail, kSkip };
// Whether identify passes store their batches for the passes after them (batch_store.h).
enum class MaterializeMode { kAuto, kAlways, kNever };

struct StageConfig {
  const StageSpec* spec = nullptr;
  std::string name;
  int workers = 0;  // 0: not pinned
  StageParams params;
  ItemKind kind_in = ItemKind::kDocument;  // what reaches it (checked against spec->takes)
  ItemKind kind_out = ItemKind::kDocument;
};

// The rules a run's settings follow wherever they are given (the pipeline file or the command
// line), with one message each: nullopt when the value is fine.
inline constexpr int kMaxThreads = 1024;
std::optional<std::string> threads_problem(int64_t threads);
std::optional<std::string> batch_size_problem(int64_t batch_size);
std::optional<std::string> gpus_problem(double gpus);

struct PipelineConfig {
  std::string source;  // file name, for messages
  // input
  std::vector<std::string> input_paths;
  std::string text_field = "text";
  std::string id_field = "id";
  uint64_t max_line_bytes = 32 << 20;
  InputFormat input_format = InputFormat::kAuto;
  ItemKind input_kind = ItemKind::kDocument;  // what the reader makes (from input_format)
  WarcOptions warc;  // batch sizes and the text field are filled in by the executor
  MediaFileOptions media;
  WikipediaOptions wikipedia;  // MediaWiki dumps; batch sizes and the text field as for warc
  bool follow_links = false;  // inside input folders (io/input_files.h)
  bool union_schemas = false;  // Parquet inputs with different columns (io/parquet_schemas.h)
  // Parquet files of at least twice this many MiB of compressed row groups are read as several
  // shards of consecutive row groups (io/parquet_ranges.h); 0: never split.
  double parquet_split_mb = 256;
  // Passes that write nothing read only the Parquet columns their stages need
  // (pipeline/record_projection.h).
  bool project_columns = true;
  // output
  std::string output_path;
  OutputFormat output_format;  // JSON Lines (zstd) unless output.format says otherwise
  int compression_level = 0;  // 0: the codec's default
  bool write_rejected = true;
  uint64_t max_file_bytes = 0;  // > 0: kept output in parts of at most this much JSONL
  uint64_t max_tar_bytes = 0;   // > 0: kept WebDataset samples in tars of at most this much
  // run
  OnError on_error = OnError::kFail;
  int threads = 0;
  double gpus = -1;  // < 0: detect
  AutoscaleSettings autoscale;
  bool fuse = true;  // never changes output bytes: not in the fingerprint
  // Whether identify passes store their batches for the passes after them (batch_store.h);
  // never changes output bytes: not in the fingerprint.
  MaterializeMode materialize = MaterializeMode::kAuto;
  uint64_t batch_size = 1024;
  uint64_t batch_bytes = 4 << 20;
  uint64_t seed = 42;
  // report: report.html's picture sample and size bound; never changes output bytes.
  uint64_t report_pictures_per_reason = 6;
  uint64_t report_max_bytes = 4u << 20;
  std::vector<StageConfig> stages;
  // A hash of everything that decides output bytes (stages and their parameters, fields,
  // format, seed): a resumed run must match it.
  std::string fingerprint;

  static Result<PipelineConfig> load_file(const std::string& path, const StageRegistry& registry);
  static Result<PipelineConfig> load_string(const std::string& yaml, const std::string& source,
                                            const StageRegistry& registry);

  // How to read the input files with batches of `batch_size` documents (the executor's and the
  // identify passes' readers must agree, so both take it from here).
  InputOptions input_options(size_t batch_size) const;
  // The kind of item the last stage gives (the input's without stages): what the writer writes.
  ItemKind output_kind() const { return stages.empty() ? input_kind : stages.back().kind_out; }
  // Which files an input folder contributes, and whether links inside folders are followed.
  InputSelection input_files() const {
    return {input_format == InputFormat::kWebdataset ? InputFiles::kTars
            : input_kind == ItemKind::kImage         ? InputFiles::kImages
            : input_kind == ItemKind::kVideo         ? InputFiles::kVideos
            : input_format == InputFormat::kAudio    ? InputFiles::kAudio
                                                     : InputFiles::kRecords,
            follow_links};
  }
};

}  // namespace winnow
