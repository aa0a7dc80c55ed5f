#pragma once
// RunCounts: the accounting of one shard or a whole run. Every record read is either kept,
// dropped (by "stage/reason") or an error (by kind): documents = kept + dropped + errors.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/json_text.h"
#include "core/status.h"

namespace winnow {

struct RunCounts {
  uint64_t documents = 0;  // records read: parsed documents plus error records
  uint64_t kept = 0;
  std::map<std::string, uint64_t> dropped;  // "stage/reason" -> count
  std::map<std::string, uint64_t> errors;   // error kind -> count
  uint64_t blank_lines = 0;                 // skipped, not documents
  uint64_t skipped_records = 0;             // WARC records not wanted (type, content type)
  uint64_t input_bytes = 0;                 // uncompressed bytes read
  uint64_t output_bytes = 0;                // uncompressed bytes of kept documents written

  uint64_t dropped_total() const;
  uint64_t errors_total() const;
  bool reconciles() const { return documents == kept + dropped_total() + errors_total(); }
  void merge(const RunCounts& other);

  void write_json(JsonWriter& out) const;  // as one JSON object
  static Result<RunCounts> parse_json(std::string_view json);
};

}  // namespace winnow
