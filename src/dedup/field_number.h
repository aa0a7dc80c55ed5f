#pragma once
// A document's number under a field name, for the rules that rank documents by a field (exact
// and fuzzy dedup's survivor `highest_field`, semantic dedup's `ranking: field`): an annotation
// of an earlier stage of that name first (float or integer), else the input record's member,
// where "a.b" reaches into nested objects. NaN when absent or not a number.
#include <cstddef>
#include <string>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

// "a.b.c" -> {"a", "b", "c"}.
std::vector<std::string> split_field_path(const std::string& field);

class FieldNumber {
 public:
  explicit FieldNumber(std::string field);

  const std::string& field() const { return field_; }
  double of(const DocBatch& batch, size_t row) const;

 private:
  std::string field_;
  std::vector<std::string> path_;
};

}  // namespace winnow
