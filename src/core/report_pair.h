#pragma once
// A near-duplicate pair as report.html shows it: the item a dedup step kept and one it removed
// as its duplicate, with how alike the step found them (Jaccard of shingles, cosine of
// embeddings, Hamming distance of perceptual hashes). A global step (core/global_step.h) gives
// a seeded sample of these after the writing pass, which saw the items' texts and pictures.
#include <cstdint>
#include <limits>
#include <string>

namespace winnow {

struct ReportPairItem {
  std::string id;
  std::string text;            // the text as the step saw it (cut to a bound); empty for a picture
  std::string thumbnail_jpeg;  // a small JPEG for a picture; empty for a text
};

struct ReportPair {
  std::string step;     // the stage's name (set by the pipeline)
  std::string measure;  // "Jaccard", "cosine", "Hamming distance"; empty when none
  double value = std::numeric_limits<double>::quiet_NaN();
  uint64_t rank = 0;  // the sample's seeded order within the step
  ReportPairItem survivor, removed;
};

}  // namespace winnow
