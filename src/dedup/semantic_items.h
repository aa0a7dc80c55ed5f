#pragma once
// Semantic dedup's first identify phase (dedup/semantic_step.h): the logged items in key order,
// each embedding checked (its dimension, a zero vector that cannot be normalised) and written,
// normalised, into its row of a flat float32 file mapped read-only (dedup/mapped_matrix.h), so
// the embeddings are never on the heap all at once. Items without a usable embedding are set
// aside with a message naming their file and line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "dedup/embedding_log.h"
#include "dedup/mapped_matrix.h"
#include "dedup/semantic_options.h"

namespace winnow {

namespace dist {
class Comm;
}

// What the later phases need of one item besides its embedding.
struct SemanticItem {
  uint64_t key = 0;
  uint32_t shard = 0;
  uint64_t line = 0;
  double rank_value = 0;  // ranking: field, as read; the other rankings set it when clustering
  std::string id, excerpt, problem;
  uint64_t arrival = 0;  // position in the log
  uint32_t dims = 0;
  double norm = 0;  // squared, of the embedding as logged
};

struct SemanticItems {
  std::vector<SemanticItem> items;                    // usable, key order: row r is items[r]
  std::vector<std::pair<uint64_t, std::string>> bad;  // key and message, sorted
  MappedMatrix matrix;                                // items.size() x dimension, normalised
  size_t dimension = 0;
};

// Reads `log` twice (it yields the same order both times): first each item's facts and squared
// norm, then each usable embedding into its row. The matrix file is `spill_dir`/embeddings.f32.
// `input_paths` name the shards in messages.
Status load_semantic_items(EmbeddingLog& log, const SemanticOptions& options,
                           const std::vector<std::string>& input_paths,
                           const std::string& spill_dir, SemanticItems& out);

}  // namespace winnow

namespace winnow {

// The dimension every rank loads with (collective): options.dimension when set; else, across
// several ranks, that of the item of smallest key over every rank's log with an embedding (what
// one process would take), read from a first pass over `log`; 0 (load decides) in one process.
Result<size_t> agreed_dimension(EmbeddingLog& log, const SemanticOptions& options,
                                dist::Comm& comm);

}  // namespace winnow
