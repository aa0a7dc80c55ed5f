#include "pipeline/picture_sampler.h"

#include <limits>

#include "core/item_thumbnail.h"

namespace winnow {

namespace {

bool has_picture(ItemKind kind) {
  return kind == ItemKind::kImage || kind == ItemKind::kClip || kind == ItemKind::kVideo;
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
    if (thumbnailer) item.thumbnail_jpeg = thumbnailer(batch, i);
    sample.offer(category, std::move(item));
  }
}

}  // namespace winnow
