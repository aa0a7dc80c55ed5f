#pragma once
// ReportSample: a bounded, seeded sample of items per category ("kept", "stage/reason") that
// report.html shows as pictures (a small JPEG each) with their score and reason. Each item is
// ranked by a seeded hash of its key and the `per_category` smallest ranks are kept (a bottom-k
// reservoir), so the sample depends only on which items the run saw and the seed, never on the
// order in which threads offered them: the same run gives the same report for any thread count.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace winnow {

struct SampledItem {
  uint64_t key = 0;            // DocKey value
  uint64_t rank = 0;           // seeded hash of key: smaller ranks are kept
  std::string id;              // the item's id
  double score = 0;            // the drop's score (NaN when it has none)
  std::string detail;          // free text (span, threshold, near-duplicate of ...)
  std::string thumbnail_jpeg;  // encoded JPEG bytes; empty when none (or dropped for size)
  bool sheet = false;          // a clip's or video's contact sheet (shown wider)
};

class ReportSample {
 public:
  ReportSample(size_t per_category, uint64_t seed) : per_category_(per_category), seed_(seed) {}

  // Whether an item of `key` would enter `category` now: lets a caller skip making a thumbnail
  // for most items (a cheap hash and compare under the lock).
  bool wants(const std::string& category, uint64_t key) const;

  // Thread-safe; fills item.rank from the key.
  void offer(const std::string& category, SampledItem item);

  // category -> items, smallest rank first.
  std::map<std::string, std::vector<SampledItem>> items() const;

 private:
  uint64_t rank_of(uint64_t key) const;
  size_t per_category_;
  uint64_t seed_;
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<SampledItem>> by_category_;  // each sorted by rank
};

// Drops thumbnails, largest first, until the data URIs of those left (base64, 4/3 of the
// bytes) take at most `budget_bytes`; returns how many it dropped (the page says so).
size_t fit_thumbnails(std::map<std::string, std::vector<SampledItem>>& sample,
                      size_t budget_bytes);

// Base64 length of `n` bytes (with padding): what a thumbnail adds to the page.
inline size_t data_uri_bytes(size_t n) { return 4 * ((n + 2) / 3) + 23; }

}  // namespace winnow
