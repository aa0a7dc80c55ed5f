#pragma once
// A duplicates table as one line per entry ("doc component S|- id"): what the clusterer tests
// compare, and print when they differ.
#include <string>

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

}  // namespace winnow::testing
