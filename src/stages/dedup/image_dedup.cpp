// image_exact_dedup and image_dedup: duplicate images through the same two-pass DedupStep and
// DuplicateClusterer as exact_dedup and fuzzy_dedup (dedup/dedup_step.h); only the keyers
// differ. Exact: XXH3-128 of the encoded bytes, or of the decoded pixels. Perceptual
// (media/image_signature.h): OpenCV's 64-bit pHash, banded LSH on its bits (a pair within
// `threshold` bits shares a band whenever bands > threshold: the pigeonhole principle), every
// pair of a bucket a candidate. An image is indexed by several pHashes: its own, its corner and
// centred crops (`crop_tolerance`: pHash moves far when a picture is shifted by a few percent,
// a crop's hash is close to one of these) and, with `mirror`, the same for the mirrored image.
// A candidate pair holds when one image's own hash is within the threshold of any of the
// other's, both own hashes carry enough information (flat pictures hash to noise) and their
// colour moments agree (pHash is blind to colour and brightness). Groups are stars: an image is
// removed only for a survivor it matches itself (`grouping: survivor`), never through a chain
// of matches; `grouping: components` gives the connected components instead.
#include <fmt/format.h>
#include <xxhash.h>

#include <array>
#include <bit>
#include <limits>

#include "media/decoded_images.h"
#include "media/image_signature.h"
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

struct PerceptualSettings {
  int threshold = 6;
  int bands = 7;
  bool mirror = true;
  double crop = 0.03;
  int min_hash_bits = 16;
  double colour_tolerance = 20;  // 0: off
  GroupShape groups = GroupShape::kStars;
};

class PerceptualKeyer final : public BucketKeyer {
 public:
  explicit PerceptualKeyer(PerceptualSettings settings) : settings_(settings) {}

  bool add_records(std::string_view, uint64_t, std::vector<BucketRecord>&) const override {
    return false;
  }
  // An image whose own pHash says too little (a flat picture) gives no records: it matches
  // nothing.
  bool add_item_records(const DocBatch& batch, size_t i,
                        std::vector<BucketRecord>& out) const override {
    ImageSignature signature = item_signature(batch, i);
    if (!informative(signature.informative_bits)) return false;
    for (uint64_t hash : signature.hashes) {
      for (int b = 0; b < settings_.bands; ++b) {
        out.push_back({static_cast<uint64_t>(b), band(hash, b), batch.key(i).value()});
      }
    }
    return true;
  }
  // [informative bits, 6 colour moments (float bits), then each pHash as two words]
  bool item_verification_set(const DocBatch& batch, size_t i,
                             std::vector<uint32_t>& out) const override {
    out.clear();
    ImageSignature signature = item_signature(batch, i);
    if (signature.hashes.empty()) return false;
    out.push_back(static_cast<uint32_t>(signature.informative_bits));
    for (float moment : signature.colour) out.push_back(std::bit_cast<uint32_t>(moment));
    for (uint64_t hash : signature.hashes) {
      out.push_back(static_cast<uint32_t>(hash));
      out.push_back(static_cast<uint32_t>(hash >> 32));
    }
    return true;
  }
  bool verifies_links() const override { return true; }
  // Both informative, colour moments within the tolerance, and each image's own pHash within
  // the threshold of some hash of the other (its own, crops, mirrored), either way round.
  bool link_holds(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) const override {
    if (a.size() < kHashesAt + 2 || b.size() < kHashesAt + 2) return false;
    if (!informative(static_cast<int>(a[0])) || !informative(static_cast<int>(b[0]))) return false;
    if (settings_.colour_tolerance > 0 &&
        colour_distance(colour_of(a), colour_of(b)) > settings_.colour_tolerance) {
      return false;
    }
    return within(a, b) || within(b, a);
  }
  // The report's measure: the smallest Hamming distance from either image's own pHash to any
  // hash of the other (crops, mirrored), the distance link_holds compares with the threshold.
  std::pair<std::string, double> pair_measure(const std::vector<uint32_t>& a,
                                              const std::vector<uint32_t>& b) const override {
    if (a.size() < kHashesAt + 2 || b.size() < kHashesAt + 2) {
      return {"", std::numeric_limits<double>::quiet_NaN()};
    }
    return {"Hamming distance", std::min(nearest(a, b), nearest(b, a))};
  }
  GroupShape groups() const override { return settings_.groups; }
  void describe(JsonWriter& out) const override {
    out.key("hash").value("phash64");
    out.key("hamming_threshold").value(settings_.threshold);
    out.key("bands").value(settings_.bands);
    out.key("mirror").value(settings_.mirror);
    out.key("crop_tolerance").value(settings_.crop);
    out.key("min_hash_bits").value(settings_.min_hash_bits);
    out.key("colour_tolerance").value(settings_.colour_tolerance);
    out.key("grouping").value(settings_.groups == GroupShape::kStars ? "survivor" : "components");
  }
  std::string describe_text() const override {
    return fmt::format(
        "pHash 64 bits, {} bands, Hamming <= {}{}{}{}{}{}", settings_.bands, settings_.threshold,
        settings_.crop > 0 ? fmt::format(", crops up to {}%", settings_.crop * 100)
                           : std::string(),
        settings_.mirror ? ", mirrored copies included" : "",
        settings_.min_hash_bits > 0
            ? fmt::format(", hashes with {}+ informative bits", settings_.min_hash_bits)
            : std::string(),
        settings_.colour_tolerance > 0
            ? fmt::format(", colour moments within {}", settings_.colour_tolerance)
            : std::string(),
        settings_.groups == GroupShape::kStars ? ", each removal matched to its survivor"
                                               : ", connected components");
  }

 private:
  static constexpr size_t kHashesAt = 7;

  bool informative(int bits) const { return bits >= settings_.min_hash_bits; }
  static std::array<float, 6> colour_of(const std::vector<uint32_t>& set) {
    std::array<float, 6> colour{};
    for (size_t c = 0; c < colour.size(); ++c) colour[c] = std::bit_cast<float>(set[1 + c]);
    return colour;
  }
  static uint64_t hash_at(const std::vector<uint32_t>& set, size_t j) {
    return set[kHashesAt + 2 * j] | (uint64_t{set[kHashesAt + 2 * j + 1]} << 32);
  }
  bool within(const std::vector<uint32_t>& own, const std::vector<uint32_t>& other) const {
    const uint64_t hash = hash_at(own, 0);
    for (size_t j = 0; j < (other.size() - kHashesAt) / 2; ++j) {
      if (std::popcount(hash ^ hash_at(other, j)) <= settings_.threshold) return true;
    }
    return false;
  }
  static int nearest(const std::vector<uint32_t>& own, const std::vector<uint32_t>& other) {
    const uint64_t hash = hash_at(own, 0);
    int best = 64;
    for (size_t j = 0; j < (other.size() - kHashesAt) / 2; ++j) {
      best = std::min(best, std::popcount(hash ^ hash_at(other, j)));
    }
    return best;
  }
  ImageSignature item_signature(const DocBatch& batch, size_t i) const {
    thread_local ImagePixels scratch;
    const ImagePixels* image = decoded_image(batch, i, scratch);
    if (!image) return {};
    return image_signature(*image, settings_.mirror, settings_.crop);
  }
  // Band b: bits [64 b / bands, 64 (b + 1) / bands).
  uint64_t band(uint64_t hash, int b) const {
    int begin = 64 * b / settings_.bands;
    int end = 64 * (b + 1) / settings_.bands;
    uint64_t mask = end - begin >= 64 ? ~uint64_t{0} : (uint64_t{1} << (end - begin)) - 1;
    return (hash >> begin) & mask;
  }

  PerceptualSettings settings_;
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
        auto by_pixels = p.get_choice<bool>("by", {{"bytes", false}, {"pixels", true}});
        if (!by_pixels.is_ok()) return by_pixels.status();
        auto options = dedup_common_options(p, "image_exact");
        if (!options.is_ok()) return options.status();
        auto step = std::make_unique<DedupStep>(std::make_unique<ImageExactKeyer>(*by_pixels),
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
       "copies cropped by up to about this fraction of width and height (from a corner, or "
       "evenly round the centre) are near-duplicates: each image also gives the pHashes of its "
       "four corner crops and its centred crop (0: off)"},
      {"min_hash_bits", ParamType::kInt, "16",
       "an image whose own pHash has fewer bits than this decided by a clear margin (their DCT "
       "coefficient more than 2 grey levels from the mean) matches nothing: a flat or nearly "
       "flat picture hashes to rounding noise, the same for white and black (0: off)"},
      {"colour_tolerance", ParamType::kFloat, "20",
       "a second signal two near-duplicates must share: their CIELAB colour moments (mean and "
       "standard deviation of L, a, b on a 0-255 scale, of the picture shrunk to 32x32) differ "
       "by at most this much in each; pHash sees only grey (0: off)"},
      {"grouping", ParamType::kString, "survivor",
       "survivor: an image is removed only when it matches its group's survivor itself; "
       "components: every image connected to the survivor through matches is removed (chains "
       "of near-duplicates can then merge pictures far apart)"},
  };
  for (auto& p : dedup_common_params()) params.push_back(std::move(p));
  StageSpec spec{
      "image_dedup",
      "Drops near-duplicate images (pHash, banded LSH, pairs verified by Hamming distance and "
      "colour moments, each removal matched to its survivor), keeping the first (smallest key) "
      "of each group. Two passes: identify (images decoded again in the verification pass), "
      "then remove (reason near_duplicate).",
      std::move(params),
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        PerceptualSettings settings;
        int64_t threshold = p.get_int("threshold");
        if (threshold < 0 || threshold > 32) return p.error("threshold", "must be 0 to 32");
        int64_t bands = p.given("bands") ? p.get_int("bands") : threshold + 1;
        if (bands < 1 || bands > 64) return p.error("bands", "must be 1 to 64");
        double crop = p.get_float("crop_tolerance");
        if (crop < 0 || crop > 0.25) return p.error("crop_tolerance", "must be 0 to 0.25");
        int64_t min_bits = p.get_int("min_hash_bits");
        if (min_bits < 0 || min_bits > 64) return p.error("min_hash_bits", "must be 0 to 64");
        double colour = p.get_float("colour_tolerance");
        if (!(colour >= 0 && colour <= 255)) {
          return p.error("colour_tolerance", "must be 0 to 255");
        }
        auto groups = p.get_choice<GroupShape>(
            "grouping", {{"survivor", GroupShape::kStars}, {"components", GroupShape::kComponents}});
        if (!groups.is_ok()) return groups.status();
        settings.threshold = static_cast<int>(threshold);
        settings.bands = static_cast<int>(bands);
        settings.mirror = p.get_bool("mirror");
        settings.crop = crop;
        settings.min_hash_bits = static_cast<int>(min_bits);
        settings.colour_tolerance = colour;
        settings.groups = *groups;
        auto options = dedup_common_options(p, "image_perceptual");
        if (!options.is_ok()) return options.status();
        auto step = std::make_unique<DedupStep>(std::make_unique<PerceptualKeyer>(settings),
                                                std::move(options).value());
        return std::unique_ptr<Stage>(new DedupStage(std::move(step), "near_duplicate", context));
      },
  };
  spec.takes = ItemKind::kImage;
  return spec;
}

}  // namespace winnow
