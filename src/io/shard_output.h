#pragma once
// ShardOutput: the files one input shard produces — kept documents, rejected documents, error
// records — and its completion marker. Each file is written under a temporary name; commit()
// renames them and writes the marker last, so a shard with a marker is complete, and a shard
// without one is redone by the next run.
#include <memory>
#include <string>

#include "core/doc_batch.h"
#include "core/run_counts.h"
#include "io/byte_sink.h"
#include "io/megatron_dataset.h"
#include "io/output_format.h"
#include "io/parquet_table.h"
#include "io/tar_writer.h"

namespace winnow {

struct ShardPaths {
  std::string kept;
  std::string rejected;
  std::string errors;
  std::string marker;
  std::string name;       // the shard's output name (the input's stem, made unique)
  std::string files_dir;  // where kept media items' bytes go (OUT/files)
  std::string out_dir;    // the output folder (kept clips go to its clips/, metas/, previews/)
};

// The marker's content: which pipeline made the shard, and the shard's counts (so a resumed
// run still reports totals for shards it skipped).
struct CompletionMarker {
  std::string fingerprint;
  std::string input;
  RunCounts counts;

  std::string to_json() const;
  static Result<CompletionMarker> read(const std::string& path);
};

struct ShardOutputOptions {
  OutputFormat format;
  int level = 0;  // compression level; 0: the codec's default
  uint64_t max_file_bytes = 0;
  CompressionThreads threads;
  // With a Parquet format: the kept table's settings (the rejected table's are the same with
  // `rejected` set).
  ParquetTableOptions parquet;
  // Kept WebDataset samples: tars of at most about this many bytes (0: one per shard).
  uint64_t max_tar_bytes = 0;
};

// With max_file_bytes > 0 the kept documents go to parts "<name>-p00000<ext>", "-p00001", ...
// A part is cut before the document that would take it past max_file_bytes of uncompressed
// JSONL (a part always holds at least one document), so the cuts depend only on the documents,
// never on batch sizes. A JSON Lines part is committed when full; Parquet parts are all
// written at commit, with one schema for the shard. The marker still comes last.
//
// With the megatron format the kept documents' encoded bytes are their token ids (one
// document per encoded_kept_ends entry, pipeline/megatron_encoder.h), written to
// "<name>.bin" with its "<name>.idx" (io/megatron_dataset.h), committed at commit() before the
// marker; with max_file_bytes the pairs are "<name>-p00000.bin/.idx", ..., cut between
// documents at that many .bin bytes, each pair committed when full. A shard that kept nothing
// still has its (empty) pair.
//
// A kept clip (transcode_clips made its bytes) goes to the anchor's layout instead:
// OUT/clips/<id>.mp4, OUT/previews/<id>.jpg and OUT/metas/<id>.json (io/clip_meta.h), each
// written whole under a temporary name and renamed.
//
// A kept media item's bytes (its in-memory payload) are written unchanged to its own file in
// files_dir, named by media_file_name and committed once whole (before the shard's marker);
// its line in the kept table names that file. Audio items are always named with their key
// ("<name>-<key>.flac": a manifest's items share its shard) and their line is a NeMo manifest
// line whose audio_filepath names that file (relative to the kept manifest's folder). A kept WebDataset sample (a payload with
// members) goes instead, every member unchanged and in its order, to the shard's tars
// files_dir/<name>-00000.tar, -00001.tar, ... (tar_path): a tar is cut before the sample that
// would take it past max_tar_bytes (so cuts depend only on the samples) and committed when
// full; the last one at commit(), before the marker. A shard that kept no sample has no tar.
class ShardOutput {
 public:
  ShardOutput(ShardPaths paths, ShardOutputOptions options);

  // The name of kept part `index` for a shard whose single-file name is `kept`.
  static std::string part_path(const std::string& kept, std::string_view extension, uint64_t index);
  // A media item's file name under files_dir: the shard's name for the item read from the input
  // (an image keeps its file's name), "<name>-<key as 16 hex digits><ext>" for one a stage made.
  static std::string media_file_name(const std::string& shard_name, const DocBatch& batch,
                                     size_t row);
  // A clip's file name without extension under clips/, metas/ and previews/: its id when that
  // is a plain name (split_video's ids are), else its key as 16 hex digits.
  static std::string clip_stem(const DocBatch& batch, size_t row);
  // Tar `index` of a shard's kept samples: "<dir>/<name without .tar>-NNNNN.tar".
  static std::string tar_path(const std::string& dir, const std::string& shard_name,
                              uint64_t index);

  // Appends a batch's encoded bytes; files other than the kept one open at first use.
  Status write(const DocBatch& batch);
  Status commit(const CompletionMarker& marker);

 private:
  // Appends to a table's sink, opening it (with `table`, as a Parquet part) at first use.
  Status append(std::unique_ptr<ByteSink>& sink, const std::string& path, Compression compression,
                std::string_view bytes, ParquetTable* table = nullptr);
  Status write_kept(const DocBatch& batch);
  Status write_kept_tokens(const DocBatch& batch);
  Status write_media(const DocBatch& batch);
  std::string kept_path() const;
  Status write_sample(const Payload& payload);
  // clips/<stem>.mp4, previews/<stem>.jpg (the payload's second member) and metas/<stem>.json.
  Status write_clip(const DocBatch& batch, size_t row);

  ShardPaths paths_;
  ShardOutputOptions options_;
  std::unique_ptr<ParquetTable> kept_table_;  // Parquet output only
  std::unique_ptr<ParquetTable> rejected_table_;
  uint64_t part_ = 0;        // index of the kept part being written
  uint64_t part_bytes_ = 0;  // uncompressed bytes in it so far
  std::unique_ptr<ByteSink> kept_;
  std::unique_ptr<MegatronDatasetWriter> tokens_;  // megatron output only
  std::unique_ptr<ByteSink> rejected_;
  std::unique_ptr<ByteSink> errors_;
  std::unique_ptr<TarWriter> tar_;
  uint64_t tar_index_ = 0;
};

}  // namespace winnow
