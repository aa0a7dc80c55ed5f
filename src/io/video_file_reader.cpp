#include "io/video_file_reader.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/ascii.h"
#include "core/video_probe.h"

namespace winnow {

VideoFileReader::VideoFileReader(std::string path, uint32_t shard_index)
    : path_(std::move(path)), shard_(shard_index) {}

std::string VideoFileReader::media_type_of(std::string_view path) {
  if (ascii_iends_with(path, ".mkv")) return "video/x-matroska";
  if (ascii_iends_with(path, ".webm")) return "video/webm";
  if (ascii_iends_with(path, ".mov")) return "video/quicktime";
  if (ascii_iends_with(path, ".avi")) return "video/x-msvideo";
  return "video/mp4";
}

std::unique_ptr<DocBatch> VideoFileReader::next() {
  // One batch holds the file's one item; the next is the end marker.
  auto batch = batches_.next(item_read_);
  if (!batch || batch->end_of_shard) return batch;
  item_read_ = true;
  auto error = [&](InputError kind, const std::string& message) {
    batch->errors.push_back({kind, 0, 0, fmt::format("{}: {}", path_, message), ""});
    return std::move(batch);
  };
  std::error_code ec;
  uint64_t size = std::filesystem::file_size(path_, ec);
  if (ec) return error(InputError::kUnreadableFile, "cannot read: " + ec.message());
  if (size == 0) return error(InputError::kEmptyFile, "empty file");
  bytes_read_ = size;
  batch->raw_input_bytes = size;
  VideoProbe probe = probe_video(path_);
  if (!probe.info) return error(probe.error, probe.message);
  const VideoInfo& info = *probe.info;
  std::string id = std::filesystem::path(path_).filename().string();
  batch->add_item(DocKey::make(shard_, 0), ItemKind::kVideo, id,
                  Payload::of_file(path_, media_type_of(path_)), 0);
  batch->annotation("source_video", AnnotationType::kString).set_string(0, path_);
  batch->annotation("container", AnnotationType::kString).set_string(0, info.container);
  batch->annotation("video_codec", AnnotationType::kString).set_string(0, info.video_codec);
  if (!info.audio_codec.empty()) {
    batch->annotation("audio_codec", AnnotationType::kString).set_string(0, info.audio_codec);
  }
  batch->annotation("duration_s", AnnotationType::kFloat).set_float(0, info.duration_s);
  batch->annotation("fps", AnnotationType::kFloat).set_float(0, info.fps);
  batch->annotation("frames", AnnotationType::kInt).set_int(0, info.frames);
  batch->annotation("width", AnnotationType::kInt).set_int(0, info.width);
  batch->annotation("height", AnnotationType::kInt).set_int(0, info.height);
  if (info.bit_rate > 0) {
    batch->annotation("bit_rate", AnnotationType::kInt).set_int(0, info.bit_rate);
  }
  return batch;
}

}  // namespace winnow
