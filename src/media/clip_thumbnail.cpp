#include "media/clip_thumbnail.h"

#include <algorithm>
#include <cstring>

#include "media/image_thumbnail.h"
#include "media/video_codecs.h"

namespace winnow {

namespace {

// The sheet transcode_clips wrote: the payload's member named *.jpg.
std::string written_sheet(const Payload& payload) {
  if (!payload.in_memory()) return {};
  for (const PayloadMember& member : payload.members) {
    if (member.name.size() > 4 && member.name.ends_with(".jpg")) {
      return thumbnail_jpeg(payload.member_bytes(member), kSheetSide);
    }
  }
  return {};
}

// Frames side by side, tops aligned, on black.
ImagePixels tile(const std::vector<VideoFrame>& frames) {
  ImagePixels sheet;
  for (const VideoFrame& f : frames) {
    sheet.width += f.width;
    sheet.height = std::max(sheet.height, f.height);
  }
  sheet.bgr.assign(static_cast<size_t>(sheet.width) * sheet.height * 3, 0);
  int x = 0;
  for (const VideoFrame& f : frames) {
    for (int y = 0; y < f.height; ++y) {
      std::memcpy(&sheet.bgr[(static_cast<size_t>(y) * sheet.width + x) * 3],
                  &f.bgr[static_cast<size_t>(y) * f.width * 3], static_cast<size_t>(f.width) * 3);
    }
    x += f.width;
  }
  return sheet;
}

// kSheetTiles frames spread over the span (a video without an end: one every 2 s from its start).
std::string sampled_sheet(const Payload& payload) {
  FrameRequest request;
  request.begin_s = payload.time_begin;
  request.end_s = payload.time_end;
  const double span = payload.time_end > payload.time_begin ? payload.time_end - payload.time_begin
                                                            : 2.0 * kSheetTiles;
  request.sample_fps = kSheetTiles / span;
  request.width = kSheetTileWidth;
  std::vector<VideoFrame> frames;
  Status status = decode_video_frames(payload.path, request, [&frames](VideoFrame& frame) {
    frames.push_back(std::move(frame));
    return frames.size() < static_cast<size_t>(kSheetTiles);
  });
  if (!status.is_ok() || frames.empty()) return {};
  return thumbnail_jpeg(tile(frames), kSheetSide);
}

}  // namespace

std::string clip_thumbnail(const DocBatch& batch, size_t row) {
  const ItemKind kind = batch.kind(row);
  if (kind != ItemKind::kClip && kind != ItemKind::kVideo) return {};
  const Payload* payload = batch.payload(row);
  if (!payload) return {};
  std::string sheet = written_sheet(*payload);
  if (sheet.empty() && !payload->path.empty()) sheet = sampled_sheet(*payload);
  return sheet;
}

}  // namespace winnow
