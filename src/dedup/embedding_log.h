#pragma once
// EmbeddingLog: what semantic dedup's identify pass keeps of each item (key, where it came
// from, rank value, id, a text excerpt for the report, and the embedding or what was wrong
// with it). Appended by many threads, buffered up to a memory budget, then spilled to one
// checksummed file (dedup/spill_file.h); read back once, in arbitrary order.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "dedup/spill_file.h"

namespace winnow {

struct LoggedItem {
  uint64_t key = 0;
  uint32_t shard = 0;
  uint64_t line = 0;
  double rank_value = 0;
  std::string_view id;
  std::string_view excerpt;
  std::string_view problem;  // non-empty: no usable embedding, and why
  std::string_view floats;   // the embedding's floats, packed (possibly unaligned)
  size_t dims() const { return floats.size() / sizeof(float); }
};

class EmbeddingLog {
 public:
  EmbeddingLog(std::string path, size_t memory_bytes);

  // Appends one item to `out`; pass the result of many to add().
  static void serialize(std::string& out, const LoggedItem& item);
  Status add(std::string_view serialized);  // thread-safe
  // Every item ever added, once, in an order fixed by the log's contents: a second call
  // yields the same items in the same order. Call after the last add().
  Status for_each(const std::function<Status(const LoggedItem&)>& visit);

  uint64_t spilled_bytes() const { return log_.spilled_bytes(); }

 private:
  Status visit_block(std::string_view block,
                     const std::function<Status(const LoggedItem&)>& visit) const;

  SpillLog log_;
};

}  // namespace winnow
