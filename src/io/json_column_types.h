#pragma once
// JsonColumnTypes: the Parquet column types of JSON records, found by looking at every record,
// for writing JSON Lines input as Parquet. The mapping is chosen so that JSON → Parquet → JSON
// gives back the same values (io/parquet_reader.h maps the types back):
//   string                        -> VARCHAR (never guessed to be a date or time: a string
//                                    that looks like one stays a string)
//   true / false                  -> BOOLEAN
//   integer (64-bit signed)       -> BIGINT
//   any other number, or integers
//   mixed with such numbers       -> DOUBLE
//   array                         -> LIST of its elements' common type (JSON[] if none known)
//   object                        -> STRUCT, when every object of the field has the same keys
//                                    (in any order; nested fields merged the same way)
//   anything else: values of different kinds (a string here, a number there), objects with
//   different keys, an integer beyond 64 bits, a field holding a number simdjson cannot read
//   (io/wide_json_numbers.h) at any depth, more than kMaxStructFields keys
//                                 -> JSON (DuckDB's JSON type: the value's JSON text, written
//                                    back as it was)
//   null                          -> no information; a field that is only ever null is JSON.
// A field missing from a record is null in that row: Parquet has no "absent".
// Columns come in the order their fields first appear.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

class JsonColumnTypes {
 public:
  static constexpr size_t kMaxStructFields = 256;

  JsonColumnTypes();
  ~JsonColumnTypes();
  JsonColumnTypes(JsonColumnTypes&&) noexcept;
  JsonColumnTypes& operator=(JsonColumnTypes&&) noexcept;

  // One record, a JSON object (winnow wrote it, so it parses; anything else is an error).
  Status observe(std::string_view record);

  struct Column {
    std::string name;
    std::string type;  // a DuckDB type: "BIGINT", "STRUCT(\"a\" VARCHAR)", "JSON", ...
  };
  std::vector<Column> columns() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
