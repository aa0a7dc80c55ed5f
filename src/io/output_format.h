#pragma once
// OutputFormat: what the kept and rejected tables are written as. JSON Lines, plain, gzip or
// zstd (`output.format: jsonl | jsonl.gz | jsonl.zst`), or Parquet (`output.format: parquet`,
// written through DuckDB: io/parquet_table.h) with its own codec and row-group size, or, for
// the kept documents only, Megatron-LM's indexed dataset of token ids (`output.format:
// megatron`: io/megatron_dataset.h; the rejected table stays JSON Lines). Error records are
// always plain JSON Lines: they are few and meant to be read by people.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "io/compression.h"
#include "io/megatron_dataset.h"

namespace winnow {

enum class TableFormat { kJsonl, kParquet, kMegatron };

// Parquet's page compression (DuckDB's COMPRESSION option).
enum class ParquetCodec { kZstd, kSnappy, kGzip, kLz4, kNone };

std::string_view parquet_codec_name(ParquetCodec codec);  // "zstd", ..., "none"
std::optional<ParquetCodec> parquet_codec_from_name(std::string_view name);

// `output.format: megatron`: how kept documents become token ids.
struct MegatronSettings {
  std::string tokenizer;  // a tokenizer.json, or a model folder holding one
  // The post-processor's special tokens around each document (HF's add_special_tokens); off by
  // default, as NeMo's MegatronTokenizerWriter and Megatron's core tokenizers tokenise.
  bool add_special_tokens = false;
  // Append eod_id after each document that has tokens (Megatron's --append-eod).
  bool append_eod = false;
  int64_t eod_id = -1;
  // From the tokenizer's vocabulary, once it is loaded (pipeline/megatron_encoder.h).
  MegatronDtype dtype = MegatronDtype::kInt32;
};

struct OutputFormat {
  // Rows per Parquet row group. Smaller than DuckDB's 122,880: with documents of a few KB a row
  // group of that many rows is hundreds of MB held in memory while it is written, per shard being
  // written; 10,000 rows keeps the writer's memory at tens of MB and is still large enough for
  // readers to skip and decode by row group efficiently.
  static constexpr uint64_t kDefaultRowGroupRows = 10000;

  TableFormat table = TableFormat::kJsonl;
  Compression compression = Compression::kZstd;  // of JSON Lines tables
  ParquetCodec parquet_codec = ParquetCodec::kZstd;
  uint64_t row_group_rows = kDefaultRowGroupRows;
  MegatronSettings megatron;

  bool parquet() const { return table == TableFormat::kParquet; }
  bool megatron_tokens() const { return table == TableFormat::kMegatron; }
  // "jsonl", "jsonl.gz", "jsonl.zst", "parquet" or "megatron".
  std::string_view name() const;
  // The kept table's: ".jsonl", ".jsonl.gz", ".jsonl.zst", ".parquet" or ".bin" (whose ".idx"
  // goes beside it).
  std::string_view extension() const;
  // The rejected table's: the kept one's, but JSON Lines (with `compression`) for megatron.
  std::string_view rejected_extension() const;
  // This format with the table kind (and JSONL compression) a name gives; nullopt for an
  // unknown name. The Parquet settings are kept.
  std::optional<OutputFormat> with_name(std::string_view name) const;
};

}  // namespace winnow
