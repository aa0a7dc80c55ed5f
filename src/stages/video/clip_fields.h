#pragma once
// What the video stages read and write on their items, in one place: the fields a clip carries
// (io/video_file_reader.h sets the video's; split_video adds the clip's span), its id, and the
// file and span its frames come from.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/doc_batch.h"
#include "media/video_codecs.h"

namespace winnow::clip_fields {

inline constexpr std::string_view kSourceVideo = "source_video";
inline constexpr std::string_view kSpanStart = "span_start_s";
inline constexpr std::string_view kSpanEnd = "span_end_s";
inline constexpr std::string_view kClipIndex = "clip_index";
inline constexpr std::string_view kFrames = "frames";
inline constexpr std::string_view kFps = "fps";
inline constexpr std::string_view kWidth = "width";
inline constexpr std::string_view kHeight = "height";
inline constexpr std::string_view kDuration = "duration_s";
// The caption stage's windows and texts: a JSON array, written as is into metas/<id>.json.
inline constexpr std::string_view kCaptions = "captions";

// A float or int field of `row`, when set.
std::optional<double> number(const DocBatch& batch, size_t row, std::string_view name);

// The video file a clip (or a video) reads its frames from, with the clip's span; nullopt for
// an item without a file reference (a clip transcode_clips already encoded in memory).
struct ClipSource {
  std::string path;
  ClipSpan span;
};
std::optional<ClipSource> clip_source(const DocBatch& batch, size_t row);

// A clip's id, stable across runs and resumes: a UUID-shaped hex of the source path and the
// span in milliseconds.
std::string clip_id(std::string_view source_path, const ClipSpan& span);

}  // namespace winnow::clip_fields
