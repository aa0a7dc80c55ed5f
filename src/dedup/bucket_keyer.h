#pragma once
// BucketKeyer: what differs between exact and fuzzy dedup — the bucket records a document
// gives (documents sharing a bucket are duplicate candidates) and how the method describes
// itself in the run report.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_text.h"
#include "dedup/duplicate_clusterer.h"

namespace winnow {

class BucketKeyer {
 public:
  virtual ~BucketKeyer() = default;
  // Thread-safe. Appends the document's records; false when it gives none (an empty text).
  virtual bool add_records(std::string_view text, uint64_t doc,
                           std::vector<BucketRecord>& out) const = 0;
  // The document's shingle hashes, sorted and unique, for exact-Jaccard verification; false
  // when the method has no shingles.
  virtual bool shingle_set(std::string_view text, std::vector<uint32_t>& out) const {
    (void)text;
    out.clear();
    return false;
  }
  // Parameters (and for LSH its S-curve) into an open JSON object.
  virtual void describe(JsonWriter& out) const = 0;
  virtual std::string describe_text() const = 0;
};

}  // namespace winnow
