#pragma once
// A duplicates table as one line per entry ("doc component S|- id"): what the clusterer tests
// compare, and print when they differ; and a clusterer's finish() read back that way.
#include <string>

#include "dedup/duplicate_clusterer.h"
#include "dedup/duplicates_table.h"

namespace winnow::testing {

inline std::string table_text(const DuplicatesTable& table) {
  std::string text;
  for (const auto& e : table.entries) {
    text += std::to_string(e.doc) + " " + std::to_string(e.component) + " " +
            (e.survivor ? "S" : "-") + " " + e.id + "\n";
  }
  return text;
}

// finish() writing its table to `path` (the same on every rank: collective), read back.
inline Result<DuplicatesTable> finish_table(DuplicateClusterer& clusterer, const std::string& path,
                                            ClusterResult* result = nullptr) {
  auto finished = clusterer.finish({path, TableFormat::kJsonl});
  if (!finished.is_ok()) return finished.status();
  if (result) *result = std::move(finished).value();
  return DuplicatesTable::read(path);
}

}  // namespace winnow::testing
