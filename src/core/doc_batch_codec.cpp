// DocBatch::serialize / deserialize: a batch stored whole, so that a later pass can go on from
// what a pass's stages made (pipeline materialisation) instead of running them again.
//
// Layout, little-endian: "WNB2"; shard u32, sequence u64, raw_input_bytes, blank_lines,
// skipped_records, source_rows u64; rows u64, then per row: key u64, line u64, flags u8, reason
// u16, score f64, lineage (parent u64, origin u16, depth u8, kind u8, index u32), id and text
// (u64 length + bytes), the record (u64: 0 and then its bytes, or 1 + the earlier row whose
// record it shares, as a fan-out's children share their parent's), a payload (u8 present; then
// media type, bytes, path, byte range, time span); annotation columns u64, each: name, type u8, per
// row present u8 (+ value; a vector: u64 count + f32 each); errors u64, each: kind u8, line u64,
// byte_offset u64, message, excerpt; stage counts u64, each: name, u64. Integrity is the caller's:
// the pipeline stores each batch with a checksum.
#include <cstring>
#include <limits>
#include <map>
#include <span>
#include <utility>

#include "core/doc_batch.h"

namespace winnow {

namespace {

constexpr char kMagic[4] = {'W', 'N', 'B', '2'};

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  template <typename T>
  void put(T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out_.append(bytes, sizeof(T));
  }
  void put_bytes(std::string_view bytes) {
    put<uint64_t>(bytes.size());
    out_.append(bytes);
  }
  void put_floats(std::span<const float> values) {
    put<uint64_t>(values.size());
    out_.append(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  }

 private:
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  bool get(T& value) {
    if (in_.size() < sizeof(T)) return fail();
    std::memcpy(&value, in_.data(), sizeof(T));
    in_.remove_prefix(sizeof(T));
    return true;
  }
  bool get_bytes(std::string_view& bytes) {
    uint64_t n = 0;
    if (!get(n) || in_.size() < n) return fail();
    bytes = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  bool get_floats(std::vector<float>& values) {
    uint64_t n = 0;
    if (!get(n) || in_.size() / sizeof(float) < n) return fail();
    values.resize(n);
    std::memcpy(values.data(), in_.data(), n * sizeof(float));
    in_.remove_prefix(n * sizeof(float));
    return true;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return in_.empty(); }

 private:
  bool fail() {
    ok_ = false;
    return false;
  }
  std::string_view in_;
  bool ok_ = true;
};

void put_payload(Writer& w, const Payload* payload) {
  w.put<uint8_t>(payload ? 1 : 0);
  if (!payload) return;
  w.put_bytes(payload->media_type);
  const bool sample = payload->in_memory() && !payload->members.empty();
  w.put<uint8_t>(sample ? 2 : payload->in_memory() ? 1 : 0);
  if (sample) {
    // A sample's whole buffer, the item's slice of it and its members.
    w.put_bytes(*payload->buffer);
    w.put(payload->offset);
    w.put(payload->size);
    w.put<uint64_t>(payload->members.size());
    for (const PayloadMember& m : payload->members) {
      w.put_bytes(m.name);
      w.put(m.offset);
      w.put(m.size);
      w.put(m.mtime);
      w.put(m.mode);
    }
  } else {
    w.put_bytes(payload->bytes());
  }
  w.put_bytes(payload->path);
  w.put(payload->byte_begin);
  w.put(payload->byte_end);
  w.put(payload->time_begin);
  w.put(payload->time_end);
}

bool get_payload(Reader& r, Payload& payload, bool& present) {
  uint8_t has = 0, in_memory = 0;
  std::string_view media_type, bytes, path;
  if (!r.get(has)) return false;
  present = has != 0;
  if (!present) return true;
  if (!r.get_bytes(media_type) || !r.get(in_memory) || !r.get_bytes(bytes)) return false;
  std::vector<PayloadMember> members;
  uint64_t offset = 0, size = 0;
  if (in_memory == 2) {
    uint64_t count = 0;
    if (!r.get(offset) || !r.get(size) || !r.get(count) || offset + size > bytes.size()) {
      return false;
    }
    for (uint64_t i = 0; i < count; ++i) {
      PayloadMember m;
      std::string_view name;
      if (!r.get_bytes(name) || !r.get(m.offset) || !r.get(m.size) || !r.get(m.mtime) ||
          !r.get(m.mode) || m.offset + m.size > bytes.size()) {
        return false;
      }
      m.name = std::string(name);
      members.push_back(std::move(m));
    }
  }
  if (!r.get_bytes(path)) return false;
  payload = in_memory ? Payload::of_bytes(std::string(bytes), std::string(media_type))
                      : Payload::of_file(std::string(path), std::string(media_type));
  if (in_memory == 2) {
    payload.offset = offset;
    payload.size = size;
    payload.members = std::move(members);
  }
  if (in_memory) payload.path = std::string(path);
  return r.get(payload.byte_begin) && r.get(payload.byte_end) && r.get(payload.time_begin) &&
         r.get(payload.time_end);
}

}  // namespace

void DocBatch::serialize(std::string& out) const {
  Writer w(out);
  out.append(kMagic, sizeof(kMagic));
  w.put(shard);
  w.put(sequence);
  w.put(raw_input_bytes);
  w.put(blank_lines);
  w.put(skipped_records);
  w.put<uint64_t>(source_rows_);
  w.put<uint64_t>(size());
  std::map<std::pair<const char*, size_t>, uint64_t> records;  // first row holding each record
  for (size_t i = 0; i < size(); ++i) {
    w.put(rows_.keys[i].value());
    w.put(rows_.lines[i]);
    w.put(rows_.flags[i]);
    w.put(rows_.reasons[i]);
    w.put(rows_.scores[i]);
    const RowLineage& l = rows_.lineage[i];
    w.put(l.parent.value());
    w.put(l.origin);
    w.put(l.depth);
    w.put(static_cast<uint8_t>(l.kind));
    w.put(l.index);
    w.put_bytes(rows_.ids[i]);
    w.put_bytes(rows_.texts[i]);
    std::string_view record = rows_.records[i];
    auto [first, fresh] = records.emplace(std::pair(record.data(), record.size()), i);
    if (fresh || record.empty()) {
      w.put<uint64_t>(0);
      w.put_bytes(record);
    } else {
      w.put<uint64_t>(first->second + 1);
    }
    put_payload(w, payload(i));
  }
  w.put<uint64_t>(annotations_.size());
  for (const auto& column : annotations_) {
    w.put_bytes(column->name());
    w.put(static_cast<uint8_t>(column->type()));
    for (size_t i = 0; i < size(); ++i) {
      w.put<uint8_t>(column->has(i) ? 1 : 0);
      if (!column->has(i)) continue;
      switch (column->type()) {
        case AnnotationType::kFloat:
          w.put(column->float_at(i));
          break;
        case AnnotationType::kInt:
          w.put(column->int_at(i));
          break;
        case AnnotationType::kString:
          w.put_bytes(column->string_at(i));
          break;
        case AnnotationType::kFloatVector:
          w.put_floats(column->vector_at(i));
          break;
      }
    }
  }
  w.put<uint64_t>(errors.size());
  for (const InputErrorRecord& e : errors) {
    w.put(static_cast<uint8_t>(e.kind));
    w.put(e.line);
    w.put(e.byte_offset);
    w.put_bytes(e.message);
    w.put_bytes(e.excerpt);
  }
  w.put<uint64_t>(stage_counts.size());
  for (const auto& [name, count] : stage_counts) {
    w.put_bytes(name);
    w.put(count);
  }
}

namespace {

// One row as stored, before it goes back into a batch.
struct StoredRow {
  uint64_t key, line, parent;
  uint8_t flags, depth, kind;
  ReasonId reason, origin;
  double score;
  uint32_t index;
  std::string_view id, text, record;
  uint64_t shares = 0;  // 1 + the earlier row whose record this is; 0: its own
  Payload payload;
  bool has_payload = false;
};

// Each step below reads one part of a stored batch and returns what is damaged, or nullptr.

const char* read_rows(Reader& r, uint64_t rows, size_t limit, std::vector<StoredRow>& parsed,
                      size_t& record_bytes) {
  parsed.resize(std::min<uint64_t>(rows, limit));
  if (parsed.size() != rows) return "row count";
  record_bytes = 0;
  for (StoredRow& row : parsed) {
    if (!r.get(row.key) || !r.get(row.line) || !r.get(row.flags) || !r.get(row.reason) ||
        !r.get(row.score) || !r.get(row.parent) || !r.get(row.origin) || !r.get(row.depth) ||
        !r.get(row.kind) || !r.get(row.index) || !r.get_bytes(row.id) || !r.get_bytes(row.text) ||
        !r.get(row.shares) || (row.shares == 0 && !r.get_bytes(row.record)) ||
        !get_payload(r, row.payload, row.has_payload)) {
      return "row cut short";
    }
    if (row.kind >= kItemKindCount) return "item kind";
    if (row.shares > static_cast<uint64_t>(&row - parsed.data())) return "record reference";
    record_bytes += row.record.size();
  }
  return nullptr;
}

const char* read_annotation_value(Reader& r, AnnotationColumn& column, size_t i) {
  switch (column.type()) {
    case AnnotationType::kFloat: {
      double f;
      if (!r.get(f)) return "annotation value";
      column.set_float(i, f);
      break;
    }
    case AnnotationType::kInt: {
      int64_t n;
      if (!r.get(n)) return "annotation value";
      column.set_int(i, n);
      break;
    }
    case AnnotationType::kString: {
      std::string_view text;
      if (!r.get_bytes(text)) return "annotation value";
      column.set_string(i, text);
      break;
    }
    case AnnotationType::kFloatVector: {
      std::vector<float> vector;
      if (!r.get_floats(vector)) return "annotation value";
      column.set_vector(i, vector);
      break;
    }
  }
  return nullptr;
}

const char* read_annotations(Reader& r, DocBatch& batch) {
  uint64_t columns = 0;
  if (!r.get(columns)) return "annotations cut short";
  for (uint64_t c = 0; c < columns; ++c) {
    std::string_view name;
    uint8_t type = 0;
    if (!r.get_bytes(name) || !r.get(type) ||
        type > static_cast<uint8_t>(AnnotationType::kFloatVector)) {
      return "annotation column";
    }
    AnnotationColumn& column = batch.annotation(name, static_cast<AnnotationType>(type));
    for (size_t i = 0; i < batch.size(); ++i) {
      uint8_t present = 0;
      if (!r.get(present)) return "annotation cut short";
      if (!present) continue;
      if (const char* damaged = read_annotation_value(r, column, i)) return damaged;
    }
  }
  return nullptr;
}

const char* read_errors(Reader& r, DocBatch& batch) {
  uint64_t error_count = 0;
  if (!r.get(error_count)) return "errors cut short";
  for (uint64_t e = 0; e < error_count; ++e) {
    uint8_t kind = 0;
    InputErrorRecord error;
    std::string_view message, excerpt;
    if (!r.get(kind) || kind >= kInputErrorCount || !r.get(error.line) ||
        !r.get(error.byte_offset) || !r.get_bytes(message) || !r.get_bytes(excerpt)) {
      return "error record";
    }
    error.kind = static_cast<InputError>(kind);
    error.message = message;
    error.excerpt = excerpt;
    batch.errors.push_back(std::move(error));
  }
  return nullptr;
}

const char* read_stage_counts(Reader& r, DocBatch& batch) {
  uint64_t count_entries = 0;
  if (!r.get(count_entries)) return "stage counts cut short";
  for (uint64_t c = 0; c < count_entries; ++c) {
    std::string_view name;
    uint64_t count = 0;
    if (!r.get_bytes(name) || !r.get(count)) return "stage count";
    batch.stage_counts[std::string(name)] = count;
  }
  return nullptr;
}

}  // namespace

Result<std::unique_ptr<DocBatch>> DocBatch::deserialize(std::string_view bytes) {
  auto damaged = [](const char* what) {
    return Status::errorf("a stored batch is damaged ({}); remove the work folder and run again",
                          what);
  };
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return damaged("no batch header");
  }
  Reader r(bytes.substr(sizeof(kMagic)));
  auto batch = std::make_unique<DocBatch>();
  uint64_t source_rows = 0, rows = 0;
  if (!r.get(batch->shard) || !r.get(batch->sequence) || !r.get(batch->raw_input_bytes) ||
      !r.get(batch->blank_lines) || !r.get(batch->skipped_records) || !r.get(source_rows) ||
      !r.get(rows)) {
    return damaged("header cut short");
  }
  std::vector<StoredRow> parsed;
  size_t record_bytes = 0;
  if (const char* what = read_rows(r, rows, bytes.size(), parsed, record_bytes)) {
    return damaged(what);
  }
  // The records go back into one padded raw buffer, as a reader leaves them, so that stages
  // that parse records in place can.
  auto raw = std::make_unique<char[]>(record_bytes + kRecordPadding);
  std::memset(raw.get() + record_bytes, ' ', kRecordPadding);
  size_t at = 0;
  for (const StoredRow& row : parsed) {
    std::memcpy(raw.get() + at, row.record.data(), row.record.size());
    at += row.record.size();
  }
  batch->set_raw_buffer(std::move(raw), record_bytes);
  batch->reserve(parsed.size());
  at = 0;
  for (size_t i = 0; i < parsed.size(); ++i) {
    const StoredRow& row = parsed[i];
    std::string_view record;
    if (row.shares > 0) {
      record = batch->rows_.records[row.shares - 1];
    } else {
      record = std::string_view(batch->raw_.get() + at, row.record.size());
      at += row.record.size();
    }
    batch->add_document(DocKey(row.key), row.id, false, row.text, record, row.line);
    Rows& stored = batch->rows_;
    stored.flags[i] = row.flags;
    stored.reasons[i] = row.reason;
    stored.scores[i] = row.score;
    stored.lineage[i] = {DocKey(row.parent), row.origin, row.depth, static_cast<ItemKind>(row.kind),
                         row.index};
    if (row.has_payload) batch->set_payload(i, row.payload);
  }
  batch->source_rows_ = source_rows;
  for (auto step : {read_annotations, read_errors, read_stage_counts}) {
    if (const char* what = step(r, *batch)) return damaged(what);
  }
  if (!r.at_end()) return damaged("bytes after the batch");
  return batch;
}

}  // namespace winnow
