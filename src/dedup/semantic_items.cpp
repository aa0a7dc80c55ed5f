#include "dedup/semantic_items.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "dist/comm.h"

namespace winnow {

namespace {

float float_at(const LoggedItem& item, size_t j) {
  float v;
  std::memcpy(&v, item.floats.data() + j * sizeof(float), sizeof v);
  return v;
}

// Every logged item's facts, sorted by key.
Result<std::vector<SemanticItem>> read_facts(EmbeddingLog& log) {
  std::vector<SemanticItem> facts;
  Status read = log.for_each([&](const LoggedItem& item) -> Status {
    double norm = 0;
    for (size_t j = 0; j < item.dims(); ++j) {
      const float v = float_at(item, j);
      norm += double{v} * v;
    }
    facts.push_back({item.key, item.shard, item.line, item.rank_value, std::string(item.id),
                     std::string(item.excerpt), std::string(item.problem), facts.size(),
                     static_cast<uint32_t>(item.dims()), norm});
    return Status::ok();
  });
  if (!read.is_ok()) return read;
  std::sort(facts.begin(), facts.end(),
            [](const SemanticItem& a, const SemanticItem& b) { return a.key < b.key; });
  return facts;
}

// Why `item` cannot be clustered, or "" when it can.
std::string problem_of(const SemanticItem& item, size_t dimension, const SemanticOptions& options) {
  if (!item.problem.empty()) return item.problem;
  if (item.dims != dimension) {
    return fmt::format("embedding field '{}' has {} numbers, expected {}", options.embedding_field,
                       item.dims, dimension);
  }
  if (options.normalize && !(item.norm > 0)) {
    return fmt::format("embedding field '{}' is a zero vector (cannot be normalised)",
                       options.embedding_field);
  }
  return "";
}

}  // namespace

Status load_semantic_items(EmbeddingLog& log, const SemanticOptions& options,
                           const std::vector<std::string>& input_paths,
                           const std::string& spill_dir, SemanticItems& out) {
  auto facts = read_facts(log);
  if (!facts.is_ok()) return facts.status();
  // The dimension: as configured, else that of the first item (smallest key) with one.
  size_t d = options.dimension;
  for (size_t i = 0; d == 0 && i < facts->size(); ++i) {
    if ((*facts)[i].problem.empty()) d = (*facts)[i].dims;
  }
  out.dimension = d;
  auto where = [&](const SemanticItem& item) {
    std::string file = item.shard < input_paths.size() ? input_paths[item.shard]
                                                       : fmt::format("shard {}", item.shard);
    return fmt::format("{}:{}", file, item.line);
  };
  std::vector<int64_t> row_of(facts->size(), -1);  // by arrival
  for (SemanticItem& item : *facts) {
    std::string problem = problem_of(item, d, options);
    if (!problem.empty()) {
      out.bad.emplace_back(
          item.key, fmt::format("{}: stage '{}': {}", where(item), options.stage_label, problem));
      continue;
    }
    row_of[item.arrival] = static_cast<int64_t>(out.items.size());
    out.items.push_back(std::move(item));
  }
  std::vector<SemanticItem>().swap(*facts);
  std::sort(out.bad.begin(), out.bad.end());

  std::filesystem::create_directories(spill_dir);
  WINNOW_RETURN_IF_ERROR(out.matrix.create(spill_dir + "/embeddings.f32", out.items.size(), d));
  uint64_t arrival = 0;
  std::vector<float> normalised(d);
  WINNOW_RETURN_IF_ERROR(log.for_each([&](const LoggedItem& item) -> Status {
    const int64_t row = row_of[arrival++];
    if (row < 0) return Status::ok();
    const double scale =
        options.normalize ? 1.0 / std::sqrt(out.items[static_cast<size_t>(row)].norm) : 1.0;
    for (size_t j = 0; j < d; ++j) normalised[j] = static_cast<float>(float_at(item, j) * scale);
    return out.matrix.write_row(static_cast<size_t>(row), normalised.data());
  }));
  return out.matrix.map();
}

Result<size_t> agreed_dimension(EmbeddingLog& log, const SemanticOptions& options,
                                dist::Comm& comm) {
  if (options.dimension != 0 || comm.size() == 1) return options.dimension;
  uint64_t first[2] = {UINT64_MAX, 0};  // key, dimension
  Status read = log.for_each([&](const LoggedItem& item) -> Status {
    if (item.problem.empty() && item.key < first[0]) {
      first[0] = item.key;
      first[1] = item.dims();
    }
    return Status::ok();
  });
  WINNOW_RETURN_IF_ERROR(dist::agree(comm, read));
  uint64_t best[2] = {UINT64_MAX, 0};
  for (const std::string& part :
       comm.all_gather(std::string(reinterpret_cast<const char*>(first), sizeof first))) {
    uint64_t theirs[2];
    if (part.size() != sizeof theirs) return Status::error("semantic dedup: a dimension arrived cut short");
    std::memcpy(theirs, part.data(), sizeof theirs);
    if (theirs[0] < best[0]) std::memcpy(best, theirs, sizeof best);
  }
  return static_cast<size_t>(best[1]);
}

}  // namespace winnow
