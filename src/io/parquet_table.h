#pragma once
// ParquetTable: one shard's kept (or rejected) table written as Parquet through DuckDB, in one
// file or in parts. The encoder's JSON lines go first to a staging file beside each part (a
// temporary name, never a final one); commit() turns every part into Parquet with one schema
// for the whole shard and renames each to its final name, so a killed run leaves only
// temporaries, which the next run removes.
//
// The schema (column names and DuckDB types, in this order):
//   - the input's own columns, with their types, when the shard's input is a Parquet file
//     (`source_columns`: the run's Parquet inputs share them, io/parquet_schemas.h); otherwise the
//     columns found in the JSON lines themselves, typed as io/json_column_types.h documents
//     (strings stay strings, an object with varying keys is JSON, ...);
//   - the generated id (`id_field`, VARCHAR) when some row has one and the input has no such
//     column;
//   - the annotation columns the stages added, by their declared type: float -> DOUBLE,
//     int -> BIGINT, string -> VARCHAR, float vector (an embedding) -> FLOAT[], in the order they first appear in the rows (an
//     annotation of an input column's name replaces that column's type);
//   - for the rejected table, `winnow_drop STRUCT(stage VARCHAR, reason VARCHAR, score DOUBLE)`.
// Rows keep their order. Values go back through DuckDB's JSON reader with these explicit types,
// so a Parquet input's timestamps, decimals, maps and non-finite doubles (which the reader wrote
// as JSON strings: io/parquet_reader.h) are written back as the types they were; the values
// that travel as DuckDB's text of them (blobs, wide decimals: io/json_transport_type.h) are read
// as text and cast back to their column's type. A column whose type cannot be named back to
// DuckDB (a UNION read as a struct with unnamed fields) fails the commit, naming it.
// The bytes depend only on the rows: DuckDB writes with one thread.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/status.h"
#include "io/byte_sink.h"
#include "io/output_format.h"
#include "io/table_column.h"

namespace winnow {

struct ParquetTableOptions {
  ParquetCodec codec = ParquetCodec::kZstd;
  int level = 0;  // zstd 1..22, gzip 1..9; 0: the codec's default
  uint64_t row_group_rows = OutputFormat::kDefaultRowGroupRows;
  std::optional<TableColumns> source_columns;  // when the shard's input is Parquet
  std::string text_field = "text";
  std::string id_field = "id";
  bool rejected = false;  // the rejected table: adds winnow_drop
};

class ParquetTable {
 public:
  explicit ParquetTable(ParquetTableOptions options);
  ~ParquetTable();  // parts not committed leave no file behind

  // A sink for the part whose final name is `final_path` (a .parquet file). Its JSON lines are
  // staged; its finish() ends the part, which becomes Parquet at commit().
  Result<std::unique_ptr<ByteSink>> open_part(const std::string& final_path);
  // The encoder's fields in a batch's lines for this table (DocBatch::EncodedFields).
  void note_fields(const DocBatch& batch, const DocBatch::EncodedFields& fields);
  // Writes every finished part as Parquet and commits it, in order.
  Status commit();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
