#include "dedup/pair_capture.h"

#include <algorithm>

#include "core/item_thumbnail.h"
#include "core/utf8.h"

namespace winnow {

CapturedItem capture_item(const DocBatch& batch, size_t i) {
  CapturedItem item;
  item.id = std::string(batch.id(i));
  if (batch.kind(i) == ItemKind::kDocument) {
    item.text = std::string(utf8_prefix(batch.text(i), kMaxReportTextBytes));
  } else if (ItemThumbnailer thumbnailer = item_thumbnailer()) {
    item.thumbnail_jpeg = thumbnailer(batch, i);
  }
  return item;
}

void PairCapture::choose(std::vector<ChosenPair> pairs) {
  std::lock_guard lock(mutex_);
  pairs_ = std::move(pairs);
  wanted_.clear();
  for (const ChosenPair& p : pairs_) {
    wanted_.push_back(p.removed);
    wanted_.push_back(p.survivor);
  }
  std::sort(wanted_.begin(), wanted_.end());
  items_.clear();
}

bool PairCapture::wants(uint64_t key) const {
  return std::binary_search(wanted_.begin(), wanted_.end(), key);
}

void PairCapture::keep(uint64_t key, CapturedItem item) {
  std::lock_guard lock(mutex_);
  items_.try_emplace(key, std::move(item));
}

std::vector<ReportPair> PairCapture::report_pairs(const Measure& measure) const {
  std::lock_guard lock(mutex_);
  std::vector<ReportPair> out;
  for (const ChosenPair& p : pairs_) {
    auto survivor = items_.find(p.survivor), removed = items_.find(p.removed);
    if (survivor == items_.end() || removed == items_.end()) continue;
    ReportPair pair;
    pair.rank = p.rank;
    std::tie(pair.measure, pair.value) = measure(survivor->second, removed->second, p);
    pair.survivor = {survivor->second.id, survivor->second.text, survivor->second.thumbnail_jpeg};
    pair.removed = {removed->second.id, removed->second.text, removed->second.thumbnail_jpeg};
    out.push_back(std::move(pair));
  }
  return out;
}

}  // namespace winnow
