#pragma once
// ParquetReader: streams one Parquet file through DuckDB (its C API, hidden in the .cpp) into
// batches of raw lines, one JSON object per row, which the parse step turns into documents
// exactly as it does JSON Lines: the text and id come from input.text_field / id_field, and
// every other column is carried in the record and written back as a JSON field.
//
// Column types map to JSON as DuckDB's json_object writes them:
//   VARCHAR, UUID, ENUM                 -> string
//   integers, DECIMAL(p, s) with p <= 15 -> number
//   DECIMAL(p, s) with p > 15, HUGEINT,  -> string of DuckDB's text of the value (digits: a
//   UHUGEINT, BIT                           double holds 15, JSON parsers 64 bits)
//   FLOAT, DOUBLE                       -> number (a FLOAT as the double it widens to);
//                                          NaN, Infinity, -Infinity -> the strings "NaN",
//                                          "Infinity", "-Infinity" (JSON has no such numbers)
//   BOOLEAN                             -> true / false
//   NULL (any type)                     -> null
//   TIMESTAMP[_S|_MS|_NS]               -> string "YYYY-MM-DD HH:MM:SS[.ffffff]" (ISO 8601
//                                          with a space for the T, as RFC 3339 allows)
//   TIMESTAMP WITH TIME ZONE            -> the same in UTC with its offset, "...+00"
//   DATE, TIME, INTERVAL                -> string "YYYY-MM-DD", "HH:MM:SS[.ffffff]", "1 day"
//   BLOB                                -> string, bytes outside printable ASCII (and \ " ')
//                                          as \xHH
//   LIST, ARRAY                         -> array
//   STRUCT                              -> object (fields in schema order)
//   MAP                                 -> object (keys as strings)
//   JSON                                -> the JSON value itself (as DuckDB prints it: minified)
// The string forms (io/json_transport_type.h) apply at any depth; the Parquet writer casts them
// back to the column's type (io/parquet_table.h), so Parquet in, Parquet out is the same table.
//
// Hive partitions: DuckDB adds each key=value folder of the file's path as a column (after the
// file's own; values typed as DuckDB detects them), as read_parquet does by default.
//
// With `columns` set (a projection), only those columns and the text are asked of DuckDB, which
// then reads and decodes no page of the others: an identify pass that needs the text and id of
// a file with wide other columns reads a fraction of it. Damage confined to a column not read
// goes unseen by such a pass (the writing pass, which reads every column, names it).
//
// Rows are read in file order with a streaming result, one DuckDB data chunk (2,048 rows) at a
// time, so memory stays bounded by a row group's decoded columns whatever the file's size.
// DuckDB runs on the reading thread only (threads = 1), inside the run's CPU budget.
//
// Row i of the file (0-based) is line i + 1 of the shard, in a range of it as well: its DocKey row
// is i, and the "line" of an error record is the 1-based row number. Bad input is an error record
// naming the file: no PAR1 magic at the start (not_parquet), none at the end (truncated_parquet),
// metadata or pages DuckDB cannot read (corrupt_parquet, naming the first row lost and its row
// group; the rows already read stay, while those DuckDB had decoded ahead, a few thousand at most,
// are lost with the rest of the file, or of the range), no text column (missing_text) or a text
// column that is not VARCHAR (text_not_string). A file-level error ends the file after one error
// record. Damage that still decodes (a flipped byte in plain or dictionary page data) goes
// unnoticed: DuckDB checks no page checksums.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "io/input_files.h"

namespace winnow {

struct ParquetOptions {
  std::string text_field = "text";  // must be a VARCHAR column
  size_t batch_records = 1024;
  size_t batch_bytes = 8 << 20;  // of JSON records
  // Projection: the columns to read besides the text column (those a pass's stages read, with
  // the id: pipeline/record_projection.h); names the file lacks are passed over. nullopt: every
  // column. The rows, their order and their numbers are those of a full read; a row's record
  // holds only the columns read (in the file's order), so DuckDB decodes only those.
  std::optional<std::vector<std::string>> columns;
  // A range of the file's rows (a shard of a split file: io/parquet_ranges.h), read through a
  // file_row_number filter that lets DuckDB skip the other row groups; the rows keep the file's
  // numbers (in DocKeys and error records). nullopt: the whole file.
  std::optional<RowRange> rows;
  uint64_t range_bytes = 0;  // the range's compressed bytes: its progress runs up to this
};

class ParquetReader {
 public:
  ParquetReader(std::string path, uint32_t shard_index, ParquetOptions options);
  ~ParquetReader();

  // The next batch; the last one is empty and marked end_of_shard; null after it.
  std::unique_ptr<DocBatch> next();
  // The file's bytes in proportion to the rows read (DuckDB reads by column chunks).
  uint64_t compressed_bytes_read() const;

  // True when the file starts with Parquet's magic bytes "PAR1".
  static bool has_parquet_magic(const std::string& path);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
