#pragma once
// EmbeddingReader: where semantic dedup gets each item's embedding: the float-vector column of
// that name an `embed` stage earlier in the pipeline wrote, else a field of the input record
// holding a JSON array of numbers ("a.b" reaches into nested objects; a Parquet list column
// arrives as such an array). The step calls read() and nothing else.
#include <cstddef>
#include <string>
#include <vector>

#include "core/doc_batch.h"

namespace winnow {

class EmbeddingReader {
 public:
  explicit EmbeddingReader(std::string field);

  const std::string& field() const { return field_; }
  // Replaces `out` with row `row`'s embedding. On failure returns what is wrong (for a
  // message that the caller prefixes with the file and line); empty on success.
  std::string read(const DocBatch& batch, size_t row, std::vector<float>& out) const;

 private:
  std::string field_;
  std::vector<std::string> path_;
};

}  // namespace winnow
