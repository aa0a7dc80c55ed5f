#pragma once
// BucketKeyer: what differs between exact, fuzzy and perceptual (image) dedup — the bucket
// records an item gives (items sharing a bucket are duplicate candidates), how candidate links
// are verified when they are, and how the method describes itself in the run report. Text
// methods implement the text entry points; a method on other items (images: their pixels)
// overrides the item entry points, which default to the text ones.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/doc_batch.h"
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
  // Thread-safe. The item entry points DedupStep calls: row `i` of `batch`.
  virtual bool add_item_records(const DocBatch& batch, size_t i,
                                std::vector<BucketRecord>& out) const {
    return add_records(batch.text(i), batch.key(i).value(), out);
  }
  // Thread-safe. The records of rows `rows` of `batch` in one call (a keyer on a device hashes
  // the whole batch at once), in the order of `rows`; gave[r] says whether rows[r] gave any.
  virtual void add_batch_records(const DocBatch& batch, std::span<const size_t> rows,
                                 std::vector<BucketRecord>& out, std::vector<uint8_t>& gave) const {
    gave.assign(rows.size(), 0);
    for (size_t r = 0; r < rows.size(); ++r) gave[r] = add_item_records(batch, rows[r], out);
  }
  virtual bool item_verification_set(const DocBatch& batch, size_t i,
                                     std::vector<uint32_t>& out) const {
    return shingle_set(batch.text(i), out);
  }
  // A method that verifies its own candidate links (a second pass collects each linked item's
  // verification set, then link_holds decides each link); the text methods verify only when
  // DedupStepOptions::jaccard_threshold asks, by Jaccard of their shingle sets.
  virtual bool verifies_links() const { return false; }
  virtual bool link_holds(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) const {
    (void)a;
    (void)b;
    return true;
  }
  // How alike two items of a near-duplicate pair are, for the run report, from their
  // verification sets: (measure, value). By default the exact Jaccard similarity of the shingle
  // sets; ("", NaN) when either has none (exact dedup).
  virtual std::pair<std::string, double> pair_measure(const std::vector<uint32_t>& a,
                                                      const std::vector<uint32_t>& b) const;
  // What a group is (dedup/duplicate_clusterer.h): connected components of the kept links, or
  // stars whose every removed member matches its survivor (a relation that does not chain).
  virtual GroupShape groups() const { return GroupShape::kComponents; }
  // "near-" or "exact " in the run report's summary line.
  virtual bool exact() const { return false; }
  // Parameters (and for LSH its S-curve) into an open JSON object.
  virtual void describe(JsonWriter& out) const = 0;
  virtual std::string describe_text() const = 0;
};

// |a ∩ b| / |a ∪ b| of two sorted, unique sets; 0 when both are empty.
double set_jaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

}  // namespace winnow
