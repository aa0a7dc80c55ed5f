// image_exact_dedup and image_dedup: duplicate images through the same two-pass DedupStep and
// DuplicateClusterer as exact_dedup and fuzzy_dedup (dedup/dedup_step.h); only the keyers
// differ. Exact: XXH3-128 of the encoded bytes, or of the decoded pixels. Perceptual: OpenCV's
// 64-bit pHash, banded LSH on its bits (a pair within `threshold` bits shares a band whenever
// bands > threshold: the pigeonhole principle), every pair of a bucket a candidate, each
// candidate verified by its Hamming distance; groups are connected components, the smallest
// key survives. An image is indexed by several pHashes (media/image_measures.h
// perceptual_hashes): its own, its four corner crops (`crop_tolerance`: pHash moves far when a
// picture is shifted by a few percent, a crop's hash is close to one of these) and, with
// `mirror`, the same for the mirrored image; a pair's distance is the least between one
// image's own hash and any of the other's, so cropped and mirrored copies are duplicates.
#include <fmt/format.h>
#include <xxhash.h>

#include <bit>

#include "media/decoded_images.h"
#include "media/image_measures.h"
#include "stages/builtin_stages.h"
#include "stages/dedup/dedup_stage.h"

namespace winnow {

namespace {

class ImageExactKeyer final : public BucketKeyer {
 public:
  explicit ImageExactKeyer(bool pixels) : pixels_(pixels) {}
  bool add_records(std::string_view, uint64_t, std::vector<BucketRecord>&) const override {
    return false;
  }
  bool add_item_records(const DocBatch& batch, size_t i,
                        std::vector<BucketRecord>& out) const override {
    const Payload* payload = batch.payload(i);
    if (!payload || !payload->in_memory()) return false;
    uint64_t hi = 0, lo = 0;
    if (pixels_) {
      if (!hash_full_pixels(payload->bytes(), hi, lo)) return false;
    } else {
      XXH128_hash_t h = XXH3_128bits(payload->bytes().data(), payload->bytes().size());
      hi = h.high64;
      lo = h.low64;
    }
    out.push_back({hi, lo, batch.key(i).value()});
    return true;
  }
  bool exact() const override { return true; }
  void describe(JsonWriter& out) const override {
    out.key("hash").value(pixels_ ? "xxh3_128 of decoded pixels" : "xxh3_128 of image bytes");
  }
  std::string describe_text() const override {
    return pixels_ ? "XXH3-128 of the decoded pixels" : "XXH3-128 of the image bytes";
  }

 private:
  bool pixels_;
};

class PerceptualKeyer final : public BucketKeyer {
 public:
  PerceptualKeyer(int threshold, int bands, bool mirror, double crop)
      : threshold_(threshold), bands_(bands), mirror_(mirror), crop_(crop) {}

  bool add_records(std::string_view, uint64_t, std::vector<BucketRecord>&) const override {
    return false;
  }
  bool add_item_records(const DocBatch& batch, size_t i,
                        std::vector<BucketRecord>& out) const override {
    std::vector<uint64_t> hashes = item_hashes(batch, i);
    for (uint64_t hash : hashes) {
      for (int b = 0; b < bands_; ++b) {
        out.push_back({static_cast<uint64_t>(b), band(hash, b), batch.key(i).value()});
      }
    }
    return !hashes.empty();
  }
  bool item_verification_set(const DocBatch& batch, size_t i,
                             std::vector<uint32_t>& out) const override {
    out.clear();
    for (uint64_t hash : item_hashes(batch, i)) {
      out.push_back(static_cast<uint32_t>(hash));
      out.push_back(static_cast<uint32_t>(hash >> 32));
    }
    return !out.empty();
  }
  bool verifies_links() const override { return true; }
  // Each image's own pHash against every hash of the other (its own, corner crops, mirrored):
  // the least distance, either way round.
  bool link_holds(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) const override {
    return within(a, b) || within(b, a);
  }
  void describe(JsonWriter& out) const override {
    out.key("hash").value("phash64");
    out.key("hamming_threshold").value(threshold_);
    out.key("bands").value(bands_);
    out.key("mirror").value(mirror_);
    out.key("crop_tolerance").value(crop_);
  }
  std::string describe_text() const override {
    return fmt::format(
        "pHash 64 bits, {} bands, Hamming <= {}{}{}", bands_, threshold_,
        crop_ > 0 ? fmt::format(", crops up to {}% from a corner", crop_ * 100) : std::string(),
        mirror_ ? ", mirrored copies included" : "");
  }

 private:
  static uint64_t hash_at(const std::vector<uint32_t>& set, size_t j) {
    return set[2 * j] | (uint64_t{set[2 * j + 1]} << 32);
  }
  bool within(const std::vector<uint32_t>& own, const std::vector<uint32_t>& other) const {
    if (own.size() < 2) return false;
    const uint64_t hash = hash_at(own, 0);
    for (size_t j = 0; j < other.size() / 2; ++j) {
      if (std::popcount(hash ^ hash_at(other, j)) <= threshold_) return true;
    }
    return false;
  }
  std::vector<uint64_t> item_hashes(const DocBatch& batch, size_t i) const {
    thread_local ImagePixels scratch;
    const ImagePixels* image = decoded_image(batch, i, scratch);
    if (!image) return {};
    return perceptual_hashes(*image, mirror_, crop_);
  }
  // Band b: bits [64 b / bands, 64 (b + 1) / bands).
  uint64_t band(uint64_t hash, int b) const {
    int begin = 64 * b / bands_;
    int end = 64 * (b + 1) / bands_;
    uint64_t mask = end - begin >= 64 ? ~uint64_t{0} : (uint64_t{1} << (end - begin)) - 1;
    return (hash >> begin) & mask;
  }

  int threshold_;
  int bands_;
  bool mirror_;
  double crop_;
};

}  // namespace

StageSpec image_exact_dedup_spec() {
  std::vector<ParamSpec> params = {
      {"by", ParamType::kString, "bytes",
       "bytes (XXH3-128 of the encoded image) or pixels (of the image decoded at full size: "
       "the same picture in another lossless encoding is a duplicate)"},
  };
  for (auto& p : dedup_common_params()) params.push_back(std::move(p));
  StageSpec spec{
      "image_exact_dedup",
      "Drops exact duplicate images (same bytes, or same decoded pixels), keeping the first "
      "(smallest key) of each group. Two passes: identify, then remove (reason "
      "exact_duplicate).",
      std::move(params),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        const std::string& by = p.get_string("by");
        if (by != "bytes" && by != "pixels") {
          return p.error("by", "must be bytes or pixels, not '" + by + "'");
        }
        auto options = dedup_common_options(p, "image_exact");
        if (!options.is_ok()) return options.status();
        auto step = std::make_unique<DedupStep>(std::make_unique<ImageExactKeyer>(by == "pixels"),
                                                std::move(options).value());
        return std::unique_ptr<Stage>(new DedupStage(std::move(step), "exact_duplicate", context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

StageSpec image_dedup_spec() {
  std::vector<ParamSpec> params = {
      {"threshold", ParamType::kInt, "6",
       "largest Hamming distance between two 64-bit pHashes that makes them near-duplicates"},
      {"bands", ParamType::kInt, "",
       "LSH bands over the 64 bits (default threshold + 1: every pair within the threshold is "
       "a candidate; fewer, wider bands make smaller buckets on large corpora but miss some "
       "pairs beyond bands - 1 bits)"},
      {"mirror", ParamType::kBool, "true",
       "mirrored copies (left-right) are near-duplicates: each image also gives its mirrored "
       "pHash"},
      {"crop_tolerance", ParamType::kFloat, "0.03",
       "copies cropped by up to about this fraction of width and height from a corner are "
       "near-duplicates: each image also gives the pHashes of its four corner crops (0: off)"},
  };
  for (auto& p : dedup_common_params()) params.push_back(std::move(p));
  StageSpec spec{
      "image_dedup",
      "Drops near-duplicate images (pHash, banded LSH, Hamming-verified pairs, connected "
      "components), keeping the first (smallest key) of each group. Two passes: identify "
      "(images decoded again in the verification pass), then remove (reason near_duplicate).",
      std::move(params),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        int64_t threshold = p.get_int("threshold");
        if (threshold < 0 || threshold > 32) return p.error("threshold", "must be 0 to 32");
        int64_t bands = p.given("bands") ? p.get_int("bands") : threshold + 1;
        if (bands < 1 || bands > 64) return p.error("bands", "must be 1 to 64");
        double crop = p.get_float("crop_tolerance");
        if (crop < 0 || crop > 0.25) return p.error("crop_tolerance", "must be 0 to 0.25");
        auto options = dedup_common_options(p, "image_perceptual");
        if (!options.is_ok()) return options.status();
        auto step = std::make_unique<DedupStep>(
            std::make_unique<PerceptualKeyer>(static_cast<int>(threshold), static_cast<int>(bands),
                                              p.get_bool("mirror"), crop),
            std::move(options).value());
        return std::unique_ptr<Stage>(new DedupStage(std::move(step), "near_duplicate", context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

}  // namespace winnow
