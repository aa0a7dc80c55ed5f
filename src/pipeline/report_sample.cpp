#include "pipeline/report_sample.h"

#include <algorithm>
#include <tuple>

#include "core/hash.h"

namespace winnow {

namespace {

// Ties of rank (astronomically rare) are broken by key, so the order is total.
bool before(const SampledItem& a, const SampledItem& b) {
  return std::tie(a.rank, a.key) < std::tie(b.rank, b.key);
}

}  // namespace

uint64_t ReportSample::rank_of(uint64_t key) const { return hash_u64(key, seed_); }

bool ReportSample::wants(const std::string& category, uint64_t key) const {
  if (per_category_ == 0) return false;
  std::lock_guard lock(mutex_);
  auto it = by_category_.find(category);
  if (it == by_category_.end() || it->second.size() < per_category_) return true;
  SampledItem probe;
  probe.key = key;
  probe.rank = rank_of(key);
  return before(probe, it->second.back());
}

void ReportSample::offer(const std::string& category, SampledItem item) {
  if (per_category_ == 0) return;
  item.rank = rank_of(item.key);
  std::lock_guard lock(mutex_);
  std::vector<SampledItem>& kept = by_category_[category];
  if (kept.size() >= per_category_ && !before(item, kept.back())) return;
  for (const SampledItem& k : kept) {
    if (k.key == item.key) return;  // offered twice (a retried batch): keep the first
  }
  kept.insert(std::upper_bound(kept.begin(), kept.end(), item, before), std::move(item));
  if (kept.size() > per_category_) kept.pop_back();
}

std::map<std::string, std::vector<SampledItem>> ReportSample::items() const {
  std::lock_guard lock(mutex_);
  return by_category_;
}

size_t fit_thumbnails(std::map<std::string, std::vector<SampledItem>>& sample,
                      size_t budget_bytes) {
  std::vector<SampledItem*> with;
  size_t total = 0;
  for (auto& [category, items] : sample) {
    for (SampledItem& item : items) {
      if (item.thumbnail_jpeg.empty()) continue;
      with.push_back(&item);
      total += data_uri_bytes(item.thumbnail_jpeg.size());
    }
  }
  // Largest first; equal sizes by rank then key, so the same sample loses the same pictures.
  std::sort(with.begin(), with.end(), [](const SampledItem* a, const SampledItem* b) {
    if (a->thumbnail_jpeg.size() != b->thumbnail_jpeg.size()) {
      return a->thumbnail_jpeg.size() > b->thumbnail_jpeg.size();
    }
    return before(*a, *b);
  });
  size_t dropped = 0;
  for (SampledItem* item : with) {
    if (total <= budget_bytes) break;
    total -= data_uri_bytes(item->thumbnail_jpeg.size());
    item->thumbnail_jpeg.clear();
    ++dropped;
  }
  return dropped;
}

}  // namespace winnow
