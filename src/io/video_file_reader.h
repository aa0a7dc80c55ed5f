#pragma once
// VideoFileReader: one video file as one item (`input.format: videos`): a reference to the file
// (its bytes stay on disk; stages decode the spans they need), probed with libavformat
// (core/video_probe.h) so that a file that is empty, not a video, damaged or cut short, without
// a video stream, in a codec no decoder here reads, or without a frame rate is an error record
// naming the file, never a crash. Its id is the file's name; the probe's facts become fields
// (video_codec, audio_codec, container, duration_s, fps, frames, width, height, bit_rate), and
// source_video holds the path as given, so every clip made from it names it.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/doc_batch.h"
#include "io/shard_batches.h"

namespace winnow {

class VideoFileReader {
 public:
  VideoFileReader(std::string path, uint32_t shard_index);

  // The item's batch, then the end marker; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return bytes_read_; }

  // "video/mp4", "video/x-matroska", ... from the file's name.
  static std::string media_type_of(std::string_view path);

 private:
  std::string path_;
  uint32_t shard_;
  ShardBatches batches_{shard_};
  bool item_read_ = false;
  uint64_t bytes_read_ = 0;
};

}  // namespace winnow
