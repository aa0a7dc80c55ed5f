#include "pipeline/picture_sampler.h"

#include <fmt/format.h>

#include <filesystem>
#include <limits>

#include "core/item_thumbnail.h"

namespace winnow {

namespace {

bool has_picture(ItemKind kind) {
  return kind == ItemKind::kImage || kind == ItemKind::kClip || kind == ItemKind::kVideo;
}

// A clip's span in its source ("3.20–7.85 s of a.mp4"); empty without one.
std::string span_text(const DocBatch& batch, size_t i) {
  const Payload* payload = batch.payload(i);
  if (!payload || payload->path.empty()) return {};
  const std::string file = std::filesystem::path(payload->path).filename().string();
  if (payload->time_end <= payload->time_begin) return file;
  return fmt::format("{:.2f}–{:.2f} s of {}", payload->time_begin, payload->time_end, file);
}

}  // namespace

void offer_pictures(ReportSample& sample, const DocBatch& batch, const ReasonTable& reasons) {
  ItemThumbnailer thumbnailer = item_thumbnailer();
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!has_picture(batch.kind(i))) continue;
    std::string category = "kept";
    double score = std::numeric_limits<double>::quiet_NaN();
    if (!batch.kept(i)) {
      const DropReason& reason = reasons.at(batch.drop_reason(i));
      if (!reason.dropped()) continue;  // replaced by its children or merged: not a drop
      category = reason.qualified();
      score = batch.drop_score(i);
    }
    uint64_t key = batch.key(i).value();
    if (!sample.wants(category, key)) continue;
    SampledItem item;
    item.key = key;
    item.id = std::string(batch.id(i));
    item.score = score;
    if (batch.kind(i) != ItemKind::kImage) {
      item.sheet = true;
      item.detail = span_text(batch, i);
    }
    if (thumbnailer) item.thumbnail_jpeg = thumbnailer(batch, i);
    sample.offer(category, std::move(item));
  }
}

}  // namespace winnow
