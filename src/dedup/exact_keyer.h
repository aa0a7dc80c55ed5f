#pragma once
// ExactKeyer: one bucket per distinct text, keyed by its XXH3-128 (optionally of the text
// lower-cased with whitespace collapsed). 128 bits: a false match needs ~2^64 documents.
#include "dedup/bucket_keyer.h"

namespace winnow {

class ExactKeyer : public BucketKeyer {
 public:
  explicit ExactKeyer(bool normalize) : normalize_(normalize) {}
  bool add_records(std::string_view text, uint64_t doc,
                   std::vector<BucketRecord>& out) const override;
  void describe(JsonWriter& out) const override;
  std::string describe_text() const override;
  bool exact() const override { return true; }

 private:
  bool normalize_;
};

}  // namespace winnow
