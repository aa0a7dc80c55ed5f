#include "io/parquet_ranges.h"

#include <fmt/format.h>

#include <algorithm>

#include "io/duckdb_session.h"

namespace winnow {

namespace {

// Each row group's rows and compressed bytes, from the footer; empty when it cannot be read or
// the file would fail as a whole (no text column, or one that is not a string).
std::vector<RowGroupSize> footer_sizes(const DuckdbSession& session, const std::string& path,
                                       const std::string& text_field) {
  auto columns = session.describe(fmt::format("read_parquet({})", sql_string(path)));
  if (!columns.is_ok() || std::none_of(columns->begin(), columns->end(), [&](const TableColumn& c) {
        return c.name == text_field && c.type == "VARCHAR";
      })) {
    return {};
  }
  std::vector<RowGroupSize> groups;
  duckdb_result result;
  std::string sql = fmt::format(
      "SELECT row_group_id, max(row_group_num_rows), sum(total_compressed_size) FROM "
      "parquet_metadata({}) GROUP BY 1 ORDER BY 1",
      sql_string(path));
  if (duckdb_query(session.connection(), sql.c_str(), &result) == DuckDBSuccess) {
    for (idx_t row = 0, n = duckdb_row_count(&result); row < n; ++row) {
      groups.push_back({static_cast<uint64_t>(duckdb_value_int64(&result, 1, row)),
                        static_cast<uint64_t>(duckdb_value_int64(&result, 2, row))});
    }
  }
  duckdb_destroy_result(&result);
  return groups;
}

}  // namespace

std::vector<RowRange> row_group_ranges(const std::vector<RowGroupSize>& groups,
                                       uint64_t split_bytes) {
  if (split_bytes == 0) return {};
  std::vector<RowRange> ranges;
  uint64_t row = 0, bytes = 0;
  for (const RowGroupSize& group : groups) {
    if (ranges.empty() || bytes >= split_bytes) {
      ranges.push_back({row, row, static_cast<uint32_t>(ranges.size())});
      bytes = 0;
    }
    row += group.rows;
    bytes += group.bytes;
    ranges.back().end = row;
  }
  // The last range, when short, joins the one before: no range holds less than split_bytes.
  if (ranges.size() > 1 && bytes < split_bytes) {
    ranges.pop_back();
    ranges.back().end = row;
  }
  if (ranges.size() < 2) return {};
  return ranges;
}

Result<std::vector<InputFile>> split_parquet_inputs(
    const std::vector<InputFile>& inputs, const std::function<bool(const InputFile&)>& is_parquet,
    const std::string& text_field, uint64_t split_bytes) {
  if (split_bytes == 0) return inputs;
  std::unique_ptr<DuckdbSession> session;
  std::vector<InputFile> out;
  for (uint32_t file = 0; file < inputs.size(); ++file) {
    InputFile input = inputs[file];
    input.key_shard = file;
    if (input.rows || input.size < 2 * split_bytes || !is_parquet(input)) {
      out.push_back(input);
      continue;
    }
    if (!session) {
      auto opened = DuckdbSession::open();
      if (!opened.is_ok()) return opened.status();
      session = std::move(opened).value();
    }
    std::vector<RowGroupSize> groups = footer_sizes(*session, input.path, text_field);
    std::vector<RowRange> ranges = row_group_ranges(groups, split_bytes);
    if (ranges.empty()) {
      out.push_back(input);
      continue;
    }
    size_t group = 0;
    uint64_t row = 0;
    for (const RowRange& range : ranges) {
      uint64_t bytes = 0;
      for (; group < groups.size() && row < range.end; ++group) {
        row += groups[group].rows;
        bytes += groups[group].bytes;
      }
      out.push_back({input.path, bytes, range, file});
    }
  }
  return out;
}

}  // namespace winnow
