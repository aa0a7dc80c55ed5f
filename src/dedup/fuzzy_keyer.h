#pragma once
// FuzzyKeyer: MinHash + LSH. A document gives one record per band: (band, band key).
// With a GpuMinHashPool (fuzzy_dedup's `device: gpu|auto`), a batch's signatures and keys are
// computed on a device, bit for bit the CPU's (tests/gpu/gpu_minhasher_gpu_test.cpp), so the
// output never depends on where they were computed.
#include <memory>

#include "dedup/bucket_keyer.h"
#include "dedup/gpu_minhash_pool.h"
#include "dedup/minhash_signer.h"

namespace winnow {

class FuzzyKeyer : public BucketKeyer {
 public:
  explicit FuzzyKeyer(MinHashParams params) : signer_(params) {}
  // Hashes batches on the devices from now on (a failed batch goes to the CPU).
  void use_gpu(std::unique_ptr<GpuMinHashPool> pool) { gpu_ = std::move(pool); }
  bool on_gpu() const { return gpu_ != nullptr; }

  bool add_records(std::string_view text, uint64_t doc,
                   std::vector<BucketRecord>& out) const override;
  void add_batch_records(const DocBatch& batch, std::span<const size_t> rows,
                         std::vector<BucketRecord>& out, std::vector<uint8_t>& gave) const override;
  bool shingle_set(std::string_view text, std::vector<uint32_t>& out) const override;
  void describe(JsonWriter& out) const override;
  std::string describe_text() const override;

  const MinHashSigner& signer() const { return signer_; }
  // "J=0.50 0.4%  J=0.55 ..." for similarities 0.50, 0.55 ... 0.95.
  static std::string s_curve_text(int bands, int rows);

 private:
  bool add_batch_on_gpu(const DocBatch& batch, std::span<const size_t> rows,
                        std::vector<BucketRecord>& out, std::vector<uint8_t>& gave) const;

  MinHashSigner signer_;
  std::unique_ptr<GpuMinHashPool> gpu_;
};

}  // namespace winnow
