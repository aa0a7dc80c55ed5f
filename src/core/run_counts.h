#pragma once
// RunCounts: the accounting of one shard or a whole run. Every record read is either kept,
// dropped (by "stage/reason") or an error (by kind): documents = kept + dropped + errors.
// Stages that turn items into others (fan-out, fan-in: core/row_builder.h) extend it: every
// row that ever existed — read, made by a fan-out, made by a fan-in — ends in exactly one
// state, so documents + children + merge results = kept + dropped + errors + fanned out +
// merged, and the same holds at each level of the fan-out for each item kind (`levels`).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/doc_batch.h"
#include "core/json_text.h"
#include "core/status.h"

namespace winnow {

class ReasonTable;

// The rows of one item kind at one fan-out depth ("document@0", "clip@1").
struct LevelCounts {
  uint64_t created = 0;  // read from the input (errors included), or made by a stage
  uint64_t kept = 0;
  uint64_t dropped = 0;
  uint64_t errors = 0;
  uint64_t fanned_out = 0;  // replaced by their children
  uint64_t merged = 0;      // merged into a row a fan-in made
  bool reconciles() const { return created == kept + dropped + errors + fanned_out + merged; }
  void merge(const LevelCounts& other);
};

struct RunCounts {
  uint64_t documents = 0;  // records read: parsed documents plus error records
  uint64_t kept = 0;
  std::map<std::string, uint64_t> dropped;  // "stage/reason" -> count
  std::map<std::string, uint64_t> errors;   // error kind -> count
  uint64_t blank_lines = 0;                 // skipped, not documents
  uint64_t skipped_records = 0;             // WARC records not wanted (type, content type)
  uint64_t input_bytes = 0;                 // uncompressed bytes read
  uint64_t output_bytes = 0;                // uncompressed bytes of kept documents written
  // By "stage/entry" (the stage's fan-out or fan-in entry): rows replaced by their children
  // and the children made; rows merged and the rows made of them.
  std::map<std::string, uint64_t> fanned_out;
  std::map<std::string, uint64_t> children;
  std::map<std::string, uint64_t> merged;
  std::map<std::string, uint64_t> merge_results;
  std::map<std::string, LevelCounts> levels;  // "kind@depth"
  // What stages counted besides the rows' outcomes, by "stage/metric" (DocBatch::stage_counts).
  std::map<std::string, uint64_t> stage_counts;

  static std::string level_name(std::string_view kind, int depth);
  // Counts a batch whose rows are in their final state (as the writer gets it): each row once,
  // at its level, by how it ended and which stage made it; its error records as input errors
  // of `input_kind`; its blank lines, skipped records and input bytes. Not output_bytes.
  void add_batch(const DocBatch& batch, const ReasonTable& reasons, ItemKind input_kind);
  uint64_t dropped_total() const;
  uint64_t errors_total() const;
  bool reconciles() const;
  void merge(const RunCounts& other);

  void write_json(JsonWriter& out) const;  // as one JSON object
  static Result<RunCounts> parse_json(std::string_view json);
};

}  // namespace winnow
