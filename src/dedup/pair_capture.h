#pragma once
// PairCapture: the items of the pairs a PairChooser chose, as the writing pass shows them to the
// dedup stage (its process() sees both the survivor and the removed item), kept for the run
// report: id, text (cut to kMaxReportTextBytes), a thumbnail for a picture, and the step's own
// verification set (shingles, pHashes) to say how alike the two are. Only the chosen keys are
// kept: a lookup in a sorted list of a few keys per row, so a large run pays next to nothing.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/doc_batch.h"
#include "core/report_pair.h"
#include "dedup/pair_chooser.h"

namespace winnow {

inline constexpr size_t kMaxReportTextBytes = 16 << 10;

struct CapturedItem {
  std::string id;
  std::string text;
  std::string thumbnail_jpeg;
  std::vector<uint32_t> set;  // the step's verification set, when it has one
};

// Row `i` of `batch` as the report shows it (no verification set).
CapturedItem capture_item(const DocBatch& batch, size_t i);

class PairCapture {
 public:
  // The pairs to capture (replaces any earlier choice and capture).
  void choose(std::vector<ChosenPair> pairs);
  // Lock-free once chosen: whether `key` is a member of a chosen pair.
  bool wants(uint64_t key) const;
  // Thread-safe; the first capture of a key stays (a retried batch offers it again).
  void keep(uint64_t key, CapturedItem item);

  // (measure name, value) of a pair from its captured items and what the chooser knew.
  using Measure = std::function<std::pair<std::string, double>(
      const CapturedItem& survivor, const CapturedItem& removed, const ChosenPair& pair)>;
  // The chosen pairs whose both items were seen, in the chooser's order.
  std::vector<ReportPair> report_pairs(const Measure& measure) const;

 private:
  std::vector<ChosenPair> pairs_;
  std::vector<uint64_t> wanted_;  // sorted
  mutable std::mutex mutex_;
  std::map<uint64_t, CapturedItem> items_;
};

}  // namespace winnow
