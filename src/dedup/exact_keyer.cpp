#include "dedup/exact_keyer.h"

#include <xxhash.h>

#include "text/dedup_normalizer.h"

namespace winnow {

bool ExactKeyer::add_records(std::string_view text, uint64_t doc,
                             std::vector<BucketRecord>& out) const {
  thread_local std::string normalized;
  if (normalize_) {
    lower_and_collapse_whitespace(text, normalized);
    text = normalized;
  }
  XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  out.push_back({h.high64, h.low64, doc});
  return true;
}

void ExactKeyer::describe(JsonWriter& out) const {
  out.key("hash").value("xxh3_128");
  out.key("normalize").value(normalize_);
}

std::string ExactKeyer::describe_text() const {
  return normalize_ ? "XXH3-128 of the lower-cased, whitespace-collapsed text"
                    : "XXH3-128 of the text";
}

}  // namespace winnow
