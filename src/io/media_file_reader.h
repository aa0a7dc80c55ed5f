#pragma once
// MediaFileReader: one media file as one item (`input.format: images`): its bytes, read whole,
// become the item's payload (core/payload.h), its media type comes from its first bytes (PNG,
// JPEG, GIF, WebP, BMP, TIFF), and its id is the file's name. An empty, unreadable or
// unrecognised file, or one over `max_bytes`, is an error record naming the file, never a
// crash. The batch holds the item and is followed by the shard's end marker, as for any reader.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/doc_batch.h"
#include "io/shard_batches.h"

namespace winnow {

struct MediaFileOptions {
  uint64_t max_bytes = 64 << 20;  // larger files are errors (record_too_large)
  // Images with more pixels (from their header) are errors (image_too_large) before any
  // decoder sees them: PIL's default limit for a decompression bomb.
  uint64_t max_pixels = 89478485;
};

class MediaFileReader {
 public:
  MediaFileReader(std::string path, uint32_t shard_index, MediaFileOptions options);

  // The item's batch, then the end marker; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return bytes_read_; }

  // "image/png", ... from a file's first bytes; nullopt when it is no image winnow knows.
  static std::optional<std::string> image_media_type(std::string_view head);

 private:
  std::string path_;
  uint32_t shard_;
  MediaFileOptions options_;
  ShardBatches batches_{shard_};
  bool item_read_ = false;
  uint64_t bytes_read_ = 0;
};

}  // namespace winnow
