#pragma once
// FuzzyKeyer: MinHash + LSH. A document gives one record per band: (band, band key).
#include "dedup/bucket_keyer.h"
#include "dedup/minhash_signer.h"

namespace winnow {

class FuzzyKeyer : public BucketKeyer {
 public:
  explicit FuzzyKeyer(MinHashParams params) : signer_(params) {}
  bool add_records(std::string_view text, uint64_t doc,
                   std::vector<BucketRecord>& out) const override;
  bool shingle_set(std::string_view text, std::vector<uint32_t>& out) const override;
  void describe(JsonWriter& out) const override;
  std::string describe_text() const override;

  const MinHashSigner& signer() const { return signer_; }
  // "J=0.50 0.4%  J=0.55 ..." for similarities 0.50, 0.55 ... 0.95.
  static std::string s_curve_text(int bands, int rows);

 private:
  MinHashSigner signer_;
};

}  // namespace winnow
