#include "pipeline/clip_timelines.h"

#include <algorithm>

#include "core/hash.h"

namespace winnow {

namespace {

// Apart from the picture sample's ranks (the same seed on the items' keys).
constexpr uint64_t kTimelineSalt = 0x7469'6d65'6c69'6e65;  // "timeline"

}  // namespace

SourceTimeline* ClipTimelines::source_for(uint64_t key, const std::string& path) {
  const uint64_t rank = hash_u64(key, seed_ ^ kTimelineSalt);
  auto it = by_rank_.find(rank);
  if (it != by_rank_.end()) return &it->second;
  if (by_rank_.size() >= sources_ && rank > by_rank_.rbegin()->first) return nullptr;
  SourceTimeline& added = by_rank_[rank];
  added.rank = rank;
  added.key = key;
  added.source = path;
  if (by_rank_.size() > sources_) by_rank_.erase(std::prev(by_rank_.end()));
  it = by_rank_.find(rank);
  return it == by_rank_.end() ? nullptr : &it->second;
}

void ClipTimelines::offer(const DocBatch& batch, const ReasonTable& reasons) {
  if (sources_ == 0) return;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kind(i) != ItemKind::kClip) continue;
    const Payload* payload = batch.payload(i);
    if (!payload || payload->path.empty()) continue;
    std::string state = "kept";
    if (!batch.kept(i)) {
      const DropReason& reason = reasons.at(batch.drop_reason(i));
      if (!reason.dropped()) continue;  // replaced by children or merged
      state = reason.qualified();
    }
    std::lock_guard lock(mutex_);
    SourceTimeline* source = source_for(batch.lineage(i).parent.value(), payload->path);
    if (!source || source->clips.size() >= kMaxTimelineClips) continue;
    const bool seen = std::any_of(source->clips.begin(), source->clips.end(),
                                  [&](const TimelineClip& c) { return c.id == batch.id(i); });
    if (!seen) {
      source->clips.push_back(
          {payload->time_begin, payload->time_end, std::string(batch.id(i)), std::move(state)});
    }
  }
}

std::vector<SourceTimeline> ClipTimelines::timelines() const {
  std::lock_guard lock(mutex_);
  std::vector<SourceTimeline> out;
  for (const auto& [rank, source] : by_rank_) {
    out.push_back(source);
    std::sort(out.back().clips.begin(), out.back().clips.end(),
              [](const TimelineClip& a, const TimelineClip& b) {
                return a.begin_s != b.begin_s ? a.begin_s < b.begin_s : a.id < b.id;
              });
  }
  return out;
}

}  // namespace winnow
