#pragma once
// AudioFileReader: one audio file as one audio item (`input.format: audio`; .wav, .flac, .mp3,
// .ogg, .opus, .m4a), decoded whole through FFmpeg's libraries (io/audio_item.h), so that a file
// that is empty, unreadable, not audio, damaged, cut short or without samples is an error record
// naming the file, never a crash. Its id is the file's name.
#include <cstdint>
#include <memory>
#include <string>

#include "core/doc_batch.h"
#include "io/shard_batches.h"

namespace winnow {

class AudioFileReader {
 public:
  AudioFileReader(std::string path, uint32_t shard_index);

  // The item's batch, then the end marker; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return bytes_read_; }

 private:
  std::string path_;
  uint32_t shard_;
  ShardBatches batches_{shard_};
  bool item_read_ = false;
  uint64_t bytes_read_ = 0;
};

}  // namespace winnow
