#pragma once
// DocBatch: the unit that moves between stages. Columnar: keys, ids, texts and raw records are
// parallel columns; filtering flips a per-document drop reason and never copies text.
//
// Each document keeps its whole raw input record (the JSON object as read). Fields other than the
// text are written back from it byte for byte; an unchanged document is written back verbatim.
//
// A row is an item of some kind (core/item_kind.h): a document, or a media item whose bytes or
// file reference sit in the payload column (core/payload.h). Each row knows its lineage: the
// item it was made from (its parent's key, for rows a fan-out stage added), how deep in the
// fan-out it is, and the reason entry of the stage that made it (0 for rows read from the
// input). Stages that turn items into other items rebuild the rows with a RowBuilder
// (core/row_builder.h).
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/arena.h"
#include "core/doc_key.h"
#include "core/input_error.h"
#include "core/item_kind.h"
#include "core/payload.h"
#include "core/status.h"

namespace winnow {

// 0 means kept; other values index the pipeline's ReasonTable, whose entries say whether the
// row was dropped, replaced by its children (fan-out) or merged into another row (fan-in).
using ReasonId = uint16_t;
inline constexpr ReasonId kKept = 0;

// Where a row came from.
struct RowLineage {
  DocKey parent;              // the row's own key for rows read from the input
  ReasonId origin = kKept;    // the fan-out/fan-in entry that made it; kKept: read from input
  uint8_t depth = 0;          // 0 for rows read from the input, parent's + 1 for children
  ItemKind kind = ItemKind::kDocument;
  uint32_t index = 0;         // its index among its parent's children
};

// Bytes guaranteed readable after the end of every raw record, so JSON parsers that read ahead
// in SIMD blocks (simdjson) can parse a record in place.
inline constexpr size_t kRecordPadding = 64;

// kFloatVector: a vector of floats per row (an embedding), written as a JSON array of numbers.
enum class AnnotationType : uint8_t { kFloat, kInt, kString, kFloatVector };

// A typed column a stage adds; documents it did not set have no value and write no field.
class AnnotationColumn {
 public:
  AnnotationColumn(std::string name, AnnotationType type, size_t rows);

  const std::string& name() const { return name_; }
  AnnotationType type() const { return type_; }
  bool has(size_t row) const { return present_[row] != 0; }
  // Makes room for rows added to the batch after the column was made (a reader that sets
  // fields item by item, io/audio_item.h); they have no value.
  void ensure_rows(size_t rows);

  void set_float(size_t row, double value);
  void set_int(size_t row, int64_t value);
  void set_string(size_t row, std::string_view value);
  // Copies `values`; rows of one column may hold vectors of different lengths.
  void set_vector(size_t row, std::span<const float> values);
  double float_at(size_t row) const { return floats_[row]; }
  int64_t int_at(size_t row) const { return ints_[row]; }
  const std::string& string_at(size_t row) const { return strings_[row]; }
  // Valid until the column is next changed.
  std::span<const float> vector_at(size_t row) const {
    return {vector_values_.data() + vector_spans_[row].offset, vector_spans_[row].length};
  }

 private:
  std::string name_;
  AnnotationType type_;
  std::vector<uint8_t> present_;
  std::vector<double> floats_;
  std::vector<int64_t> ints_;
  std::vector<std::string> strings_;
  // All rows' vectors in one buffer (one allocation for a batch of embeddings, not one per
  // row); a row set twice leaves its old values unreferenced there.
  struct VectorSpan {
    size_t offset = 0;
    size_t length = 0;
  };
  std::vector<float> vector_values_;
  std::vector<VectorSpan> vector_spans_;
};

// Derived per-document data that several stages share, so it is computed once per batch: text
// segments (words, lines, n-grams: text/doc_segments.h) for a chain of filters, decoded pixels
// (media/decoded_images.h) for image stages, token ids (stages/models/token_ids_cache.h) that a
// `tokenize` stage leaves for a model stage on another step. The caches live on the batch because
// a batch visits its stages one at a time, and travel with it between steps; core only owns them
// (one of each kind) and tells them when a document's text is replaced, so nothing stale is
// reused.
class DocBatchCache {
 public:
  virtual ~DocBatchCache() = default;
  virtual void text_changed(size_t row) = 0;
};

// A record that could not become a document (bad JSON, corrupt stream...), carried to errors/.
struct InputErrorRecord {
  InputError kind;
  uint64_t line = 0;         // 1-based line in the uncompressed stream; 0 when not line-bound
  uint64_t byte_offset = 0;  // offset in the uncompressed stream (compressed for stream errors)
  std::string message;       // names the file and line
  std::string excerpt;       // the start of the offending bytes, possibly invalid UTF-8
};

// A line cut out of a shard by the reader, before parsing.
struct RawLine {
  uint64_t offset = 0;  // into the raw buffer
  uint64_t length = 0;
  uint64_t line_number = 0;  // 1-based
  uint64_t byte_offset = 0;  // in the uncompressed stream
};

class DocBatch {
 public:
  DocBatch() = default;
  DocBatch(DocBatch&&) = default;
  DocBatch& operator=(DocBatch&&) = default;

  // Identity: which shard, which batch of it. The batch marked end_of_shard carries no
  // documents and tells the writer how many batches the shard had (sequence + 1).
  uint32_t shard = 0;
  uint64_t sequence = 0;
  bool end_of_shard = false;

  // ---- Raw input (set by the reader, consumed by the parser) ----
  void set_raw_buffer(std::unique_ptr<char[]> buffer, size_t size);
  std::string_view raw_bytes() const { return {raw_.get(), raw_size_}; }
  std::vector<RawLine> raw_lines;
  uint64_t raw_input_bytes = 0;  // uncompressed bytes this batch covers, for throughput

  // ---- Documents ----
  size_t size() const { return rows_.keys.size(); }
  // Rows read from the input (every row but those a fan-out or fan-in made), plus the error
  // records: the source records the batch covers, whatever its stages did. Throughput is
  // measured in these, so a step after a fan-out is compared with the others in the same unit
  // (the anchor's normalisation by the product of the upstream fan-out factors). Before the
  // parser has run, the raw lines it will turn into rows or errors (it clears them): a `read`
  // step of its own is measured in the same unit as the steps after it, not as doing nothing.
  size_t source_records() const { return source_rows_ + errors.size() + raw_lines.size(); }
  void reserve(size_t documents);
  // `record` must point into the raw buffer (which is padded); `text` and `id` may point
  // anywhere: they are copied into the arena unless they already lie in the raw buffer.
  void add_document(DocKey key, std::string_view id, bool id_generated, std::string_view text,
                    std::string_view record, uint64_t line);
  // A media item read from the input: no text, no raw record; its bytes or file in `payload`.
  // `text`: what text stages read of a media item (a WebDataset sample's caption); usually none.
  void add_item(DocKey key, ItemKind kind, std::string_view id, Payload payload, uint64_t line,
                std::string_view text = {});

  DocKey key(size_t i) const { return rows_.keys[i]; }
  std::string_view id(size_t i) const { return rows_.ids[i]; }
  // The id is written from the id column in place of the record's: it was generated (the
  // record has none) or a stage made the row (a child's id).
  bool id_generated(size_t i) const { return rows_.flags[i] & kIdGenerated; }
  std::string_view text(size_t i) const { return rows_.texts[i]; }
  bool text_changed(size_t i) const { return rows_.flags[i] & kTextChanged; }
  // Unchecked text: raw bytes from a reader that does not validate them (a WARC payload,
  // possibly not UTF-8), written sanitised unless a stage replaces it with set_text.
  bool text_unchecked(size_t i) const { return rows_.flags[i] & kTextUnchecked; }
  void mark_text_unchecked(size_t i) { rows_.flags[i] |= kTextChanged | kTextUnchecked; }
  std::string_view record(size_t i) const { return rows_.records[i]; }
  uint64_t line(size_t i) const { return rows_.lines[i]; }
  const RowLineage& lineage(size_t i) const { return rows_.lineage[i]; }
  ItemKind kind(size_t i) const { return rows_.lineage[i].kind; }

  // ---- Payloads (media items) ----
  // Null for a row without one (every document).
  const Payload* payload(size_t i) const {
    return i < rows_.payloads.size() && !rows_.payloads[i].empty() ? &rows_.payloads[i] : nullptr;
  }
  void set_payload(size_t i, Payload payload);

  void set_text(size_t i, std::string_view text);
  void set_id(size_t i, std::string_view id);

  // ---- Keep mask ----
  // Rows not kept (dropped, fanned out or merged) are left alone by every later stage.
  bool kept(size_t i) const { return rows_.reasons[i] == kKept; }
  ReasonId drop_reason(size_t i) const { return rows_.reasons[i]; }
  // The score is optional (NaN = none); it is written with the rejected record.
  void drop(size_t i, ReasonId reason, double score);
  void drop(size_t i, ReasonId reason);
  double drop_score(size_t i) const { return rows_.scores[i]; }
  size_t kept_count() const;

  // ---- Annotations ----
  // Returns the column, creating it (sized to the current documents) on first use, grown to
  // the current documents when rows were added since.
  AnnotationColumn& annotation(std::string_view name, AnnotationType type);
  const AnnotationColumn* find_annotation(std::string_view name) const;
  const std::vector<std::unique_ptr<AnnotationColumn>>& annotations() const { return annotations_; }

  // ---- Shared derived-data caches (see DocBatchCache), one of each kind ----
  // The batch's cache of kind `Cache`, or null.
  template <class Cache>
  Cache* find_cache() const {
    for (const auto& cache : caches_) {
      if (auto* found = dynamic_cast<Cache*>(cache.get())) return found;
    }
    return nullptr;
  }
  // The batch's cache of kind `Cache`, made (default-constructed) on first use.
  template <class Cache>
  Cache& cache() {
    if (Cache* found = find_cache<Cache>()) return *found;
    caches_.push_back(std::make_unique<Cache>());
    return static_cast<Cache&>(*caches_.back());
  }

  // ---- Errors met while reading this batch ----
  std::vector<InputErrorRecord> errors;
  uint64_t blank_lines = 0;
  uint64_t skipped_records = 0;  // WARC records of unwanted types: not documents

  // ---- What stages counted beyond the rows' outcomes ----
  // By "<stage name>/<metric>": a modifier's documents changed and characters removed, a
  // detector's entities found. A stage adds to it in process() (one thread per batch, so no
  // lock); the writer sums it into RunCounts::stage_counts, over shards and ranks, and
  // stats.json shows it under each step's "counts". Being carried by the batch, a count is
  // made once per row whatever the threads or batch sizes, and a batch stored for a later
  // pass keeps it.
  std::map<std::string, uint64_t> stage_counts;

  // ---- Stored whole (core/doc_batch_codec.cpp) ----
  // Everything a later pass needs to go on from this batch: its identity and counters, every
  // row with its state, lineage and payload, the annotation columns, the error records (not the
  // raw lines, the derived-data caches or the encoded output). A private, versioned format for
  // winnow's own work files, not for exchange.
  void serialize(std::string& out) const;
  // Fails (naming what is wrong) on bytes serialize() did not write.
  static Result<std::unique_ptr<DocBatch>> deserialize(std::string_view bytes);

  // ---- Encoded output (filled by the encoder, written by the sink) ----
  std::string encoded_kept;
  std::vector<size_t> encoded_kept_ends;  // end offset of each kept document's line
  std::string encoded_rejected;
  std::string encoded_errors;
  // The fields the encoder wrote into encoded_kept / encoded_rejected besides the records' own,
  // for a writer that needs the table's columns up front (Parquet: io/parquet_table.h): per
  // annotation column (by index into annotations()), the first row whose line holds it (kNoRow:
  // none), and whether some line holds a generated id.
  struct EncodedFields {
    static constexpr uint32_t kNoRow = UINT32_MAX;
    std::vector<uint32_t> first_row;
    bool generated_id = false;
  };
  EncodedFields encoded_kept_fields;
  EncodedFields encoded_rejected_fields;

 private:
  friend class RowBuilder;
  static constexpr uint8_t kTextChanged = 1;
  static constexpr uint8_t kIdGenerated = 2;
  static constexpr uint8_t kTextUnchecked = 4;
  bool in_raw(std::string_view bytes) const;

  // The per-row columns, kept together so that a rebuild (core/row_builder.h) replaces them as
  // one.
  struct Rows {
    std::vector<DocKey> keys;
    std::vector<std::string_view> ids;
    std::vector<std::string_view> texts;
    std::vector<std::string_view> records;
    std::vector<uint64_t> lines;
    std::vector<RowLineage> lineage;
    std::vector<Payload> payloads;  // empty until a row has one, then one per row
    std::vector<uint8_t> flags;
    std::vector<ReasonId> reasons;
    std::vector<double> scores;
    void reserve(size_t rows);
    // Appends row `row` of `from` (its payload only when `from` has any).
    void append_row(const Rows& from, size_t row);
  };

  std::unique_ptr<char[]> raw_;
  size_t raw_size_ = 0;
  Arena arena_;
  Rows rows_;
  std::vector<std::unique_ptr<AnnotationColumn>> annotations_;
  std::vector<std::unique_ptr<DocBatchCache>> caches_;
  size_t source_rows_ = 0;
};

}  // namespace winnow
