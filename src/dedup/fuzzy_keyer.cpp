#include "dedup/fuzzy_keyer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <mutex>

namespace winnow {

bool FuzzyKeyer::add_records(std::string_view text, uint64_t doc,
                             std::vector<BucketRecord>& out) const {
  thread_local std::vector<uint32_t> signature;
  thread_local std::vector<uint64_t> keys;
  if (!signer_.sign(text, signature)) return false;
  const int bands = signer_.params().bands;
  keys.resize(bands);
  signer_.band_keys(signature, keys.data());
  for (int band = 0; band < bands; ++band) {
    out.push_back({static_cast<uint64_t>(band), keys[band], doc});
  }
  return true;
}

void FuzzyKeyer::add_batch_records(const DocBatch& batch, std::span<const size_t> rows,
                                   std::vector<BucketRecord>& out,
                                   std::vector<uint8_t>& gave) const {
  if (gpu_ && add_batch_on_gpu(batch, rows, out, gave)) return;
  BucketKeyer::add_batch_records(batch, rows, out, gave);
}

bool FuzzyKeyer::add_batch_on_gpu(const DocBatch& batch, std::span<const size_t> rows,
                                  std::vector<BucketRecord>& out,
                                  std::vector<uint8_t>& gave) const {
  std::unique_ptr<GpuMinHashPool::Lease> lease = gpu_->take();
  if (!lease) return false;
  thread_local std::vector<uint32_t> hashes;
  gpu::MinHashBatch& docs = lease->batch;
  docs.clear();
  gave.assign(rows.size(), 0);
  const Shingler& shingler = signer_.shingler();
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string_view text = batch.text(rows[r]);
    // The device shingles ASCII text itself; other texts' shingles are the CPU's, as hashes.
    if (!(shingler.byte_windows(text) && docs.add_text(text))) {
      shingler.hashes(text, hashes);
      if (!docs.add_hashes(hashes)) continue;  // no shingles
    }
    gave[r] = 1;
  }
  Status status = lease->hasher->run(docs, lease->signatures, lease->keys);
  if (!status.is_ok()) {
    static std::once_flag once;
    std::call_once(once, [&] {
      std::fprintf(stderr, "winnow: %s; the batch runs on the CPU\n", status.message().c_str());
    });
    gpu_->give_back(std::move(lease));
    return false;
  }
  const size_t bands = static_cast<size_t>(signer_.params().bands);
  size_t doc = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!gave[r]) continue;
    const uint64_t key = batch.key(rows[r]).value();
    for (size_t band = 0; band < bands; ++band) {
      out.push_back({static_cast<uint64_t>(band), lease->keys[doc * bands + band], key});
    }
    ++doc;
  }
  gpu_->give_back(std::move(lease));
  return true;
}

bool FuzzyKeyer::shingle_set(std::string_view text, std::vector<uint32_t>& out) const {
  signer_.shingler().hashes(text, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return !out.empty();
}

void FuzzyKeyer::describe(JsonWriter& out) const {
  const MinHashParams& p = signer_.params();
  out.key("shingles").value(p.shingles.kind == ShingleKind::kChars ? "chars" : "words");
  out.key("ngram").value(p.shingles.n);
  out.key("bands").value(p.bands);
  out.key("rows").value(p.rows);
  out.key("hashes").value(p.hashes());
  out.key("scheme").value(p.scheme == MinHashScheme::kClassic ? "classic" : "one_permutation");
  out.key("seed").value(p.seed);
  out.key("lsh_threshold").value(lsh_threshold(p.bands, p.rows));
  out.key("lsh_s_curve").begin_object();
  for (int percent = 50; percent <= 95; percent += 5) {
    out.key(fmt::format("{:.2f}", percent / 100.0))
        .value(lsh_catch_probability(percent / 100.0, p.bands, p.rows));
  }
  out.end_object();
}

std::string FuzzyKeyer::s_curve_text(int bands, int rows) {
  std::string s;
  for (int percent = 50; percent <= 95; percent += 5) {
    s += fmt::format("{}{:.2f}:{:.1f}%", s.empty() ? "" : " ", percent / 100.0,
                     100 * lsh_catch_probability(percent / 100.0, bands, rows));
  }
  return s;
}

std::string FuzzyKeyer::describe_text() const {
  const MinHashParams& p = signer_.params();
  return fmt::format(
      "MinHash{} of {} {}-grams, {} bands x {} rows = {} hashes, seed {}; LSH threshold ~{:.2f}\n"
      "      P(caught) by Jaccard: {}",
      p.scheme == MinHashScheme::kClassic ? "" : " (one permutation, densified)",
      p.shingles.kind == ShingleKind::kChars ? "character" : "word", p.shingles.n, p.bands, p.rows,
      p.hashes(), p.seed, lsh_threshold(p.bands, p.rows), s_curve_text(p.bands, p.rows));
}

}  // namespace winnow
