#include "io/parquet_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "io/atomic_file.h"
#include "io/duckdb_session.h"
#include "io/json_column_types.h"
#include "io/json_transport_type.h"

namespace winnow {

namespace {

std::string annotation_type(AnnotationType type) {
  switch (type) {
    case AnnotationType::kFloat:
      return "DOUBLE";
    case AnnotationType::kInt:
      return "BIGINT";
    case AnnotationType::kString:
      return "VARCHAR";
    case AnnotationType::kFloatVector:
      return "FLOAT[]";
  }
  return "JSON";
}

std::string_view duckdb_codec(ParquetCodec codec) {
  return codec == ParquetCodec::kNone ? std::string_view("uncompressed")
                                      : parquet_codec_name(codec);
}

// DuckDB's JSON reader refuses records longer than this unless told otherwise.
constexpr uint64_t kDuckdbObjectSize = 16 << 20;

}  // namespace

class ParquetTable::Impl {
 public:
  explicit Impl(ParquetTableOptions options) : options_(std::move(options)) {
    if (!options_.source_columns) inferred_.emplace();
  }

  // One part's JSON lines, staged beside it under a temporary name.
  class StagingSink : public ByteSink {
   public:
    StagingSink(AtomicFile staging, Impl* table, std::string final_path)
        : ByteSink(std::move(staging)), table_(table), final_path_(std::move(final_path)) {}

    Status write(std::string_view bytes) override {
      WINNOW_RETURN_IF_ERROR(table_->observe(bytes));
      bytes_in_ += bytes.size();
      return file_.write(bytes);
    }

    Status finish() override {
      table_->add_part(std::move(file_), final_path_);
      return Status::ok();
    }

   private:
    Impl* table_;
    std::string final_path_;
  };

  // Each line's length (DuckDB's reader is told the longest) and, without an input schema, its
  // fields' types. Lines may arrive split across writes.
  Status observe(std::string_view bytes) {
    while (!bytes.empty()) {
      size_t end = bytes.find('\n');
      if (end == std::string_view::npos) {
        partial_.append(bytes);
        return Status::ok();
      }
      std::string_view line = bytes.substr(0, end);
      if (!partial_.empty()) {
        partial_.append(line);
        line = partial_;
      }
      longest_line_ = std::max<uint64_t>(longest_line_, line.size());
      if (inferred_) WINNOW_RETURN_IF_ERROR(inferred_->observe(line));
      partial_.clear();
      bytes.remove_prefix(end + 1);
    }
    return Status::ok();
  }

  void note_fields(const DocBatch& batch, const DocBatch::EncodedFields& fields) {
    generated_id_ |= fields.generated_id;
    // New columns in the order of the row that first holds each (then the row's own order).
    std::vector<std::pair<uint32_t, size_t>> fresh;
    const auto& columns = batch.annotations();
    for (size_t c = 0; c < fields.first_row.size() && c < columns.size(); ++c) {
      if (fields.first_row[c] == DocBatch::EncodedFields::kNoRow) continue;
      if (annotation_names_.count(columns[c]->name())) continue;
      fresh.emplace_back(fields.first_row[c], c);
    }
    std::sort(fresh.begin(), fresh.end());
    for (auto [row, c] : fresh) {
      annotation_names_.insert(columns[c]->name());
      annotations_.push_back({columns[c]->name(), annotation_type(columns[c]->type())});
    }
  }

  void add_part(AtomicFile staging, std::string final_path) {
    parts_.push_back({std::move(staging), std::move(final_path)});
  }

  Status commit() {
    if (parts_.empty()) return Status::ok();
    auto session = DuckdbSession::open();
    if (!session.is_ok()) return session.status();
    // A Parquet input's values that travel as text (io/json_transport_type.h) are read as that
    // text and cast back to their column's type; every other column is read as its type.
    std::string column_list, select_list;
    for (const TableColumn& c : plan_columns()) {
      std::string read_as = c.type;
      if (from_source(c)) {
        std::optional<std::string> transport = json_transport_type(c.type);
        if (!transport) {
          return Status::errorf(
              "column '{}' is {}, a type winnow cannot write back as Parquet (output.format: "
              "jsonl can)",
              c.name, c.type);
        }
        read_as = *transport;
      }
      column_list +=
          (column_list.empty() ? "" : ", ") + sql_string(c.name) + ": " + sql_string(read_as);
      select_list += select_list.empty() ? "" : ", ";
      select_list += read_as == c.type
                         ? sql_identifier(c.name)
                         : fmt::format("CAST({0} AS {1}) AS {0}", sql_identifier(c.name), c.type);
    }
    std::string options = fmt::format("FORMAT parquet, COMPRESSION {}, ROW_GROUP_SIZE {}",
                                      duckdb_codec(options_.codec), options_.row_group_rows);
    if (options_.level > 0 && options_.codec == ParquetCodec::kZstd) {
      options += fmt::format(", COMPRESSION_LEVEL {}", options_.level);
    }
    // DuckDB writes into the temporary file itself, which commit() then renames.
    options += ", USE_TMP_FILE false";
    uint64_t object_size = std::max(kDuckdbObjectSize, longest_line_ + 1);
    for (Part& part : parts_) {
      auto out = AtomicFile::create(part.final_path);
      if (!out.is_ok()) return out.status();
      std::string sql = fmt::format(
          "COPY (SELECT {} FROM read_json({}, format = 'newline_delimited', columns = {{{}}}, "
          "maximum_object_size = {})) TO {} ({})",
          select_list, sql_string(part.staging.temp_path()), column_list, object_size,
          sql_string(out->temp_path()), options);
      Status written = (*session)->exec(sql);
      if (!written.is_ok()) {
        return Status::errorf("cannot write {} as Parquet: {}", part.final_path, written.message());
      }
      WINNOW_RETURN_IF_ERROR(out->commit());
      part.staging.abandon();
    }
    parts_.clear();
    return Status::ok();
  }

 private:
  struct Part {
    AtomicFile staging;
    std::string final_path;
  };

  // A column of the Parquet input, with its type (not replaced by an annotation's).
  bool from_source(const TableColumn& column) const {
    return options_.source_columns &&
           std::find(options_.source_columns->begin(), options_.source_columns->end(), column) !=
               options_.source_columns->end();
  }

  std::vector<TableColumn> plan_columns() const {
    std::vector<TableColumn> columns;
    if (inferred_) {
      for (auto& c : inferred_->columns()) columns.push_back({c.name, c.type});
    } else {
      columns = *options_.source_columns;
    }
    auto find = [&](const std::string& name) -> TableColumn* {
      for (TableColumn& c : columns) {
        if (c.name == name) return &c;
      }
      return nullptr;
    };
    auto set = [&](const std::string& name, const std::string& type) {
      if (TableColumn* c = find(name)) {
        c->type = type;
      } else {
        columns.push_back({name, type});
      }
    };
    if (generated_id_ && !find(options_.id_field))
      columns.push_back({options_.id_field, "VARCHAR"});
    // A table with no rows has no fields to find: it still needs a column.
    if (inferred_) set(options_.text_field, "VARCHAR");
    for (const TableColumn& c : annotations_) set(c.name, c.type);
    if (options_.rejected) {
      set("winnow_drop", "STRUCT(stage VARCHAR, reason VARCHAR, score DOUBLE)");
    }
    return columns;
  }

  ParquetTableOptions options_;
  std::optional<JsonColumnTypes> inferred_;
  std::string partial_;
  uint64_t longest_line_ = 0;
  bool generated_id_ = false;
  std::set<std::string> annotation_names_;
  std::vector<TableColumn> annotations_;
  std::vector<Part> parts_;
};

ParquetTable::ParquetTable(ParquetTableOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

ParquetTable::~ParquetTable() = default;

Result<std::unique_ptr<ByteSink>> ParquetTable::open_part(const std::string& final_path) {
  auto staging = AtomicFile::create(final_path + ".staged.jsonl");
  if (!staging.is_ok()) return staging.status();
  return std::unique_ptr<ByteSink>(
      std::make_unique<Impl::StagingSink>(std::move(staging).value(), impl_.get(), final_path));
}

void ParquetTable::note_fields(const DocBatch& batch, const DocBatch::EncodedFields& fields) {
  impl_->note_fields(batch, fields);
}

Status ParquetTable::commit() { return impl_->commit(); }

}  // namespace winnow
