#pragma once
// AudioManifestReader: a NeMo-style JSON Lines manifest (`input.format: audio_manifest`), one
// audio item per line. `audio_filepath` names the audio file (a relative path is taken from the
// manifest's folder), decoded whole as the audio reader decodes (io/audio_item.h); `text` is the
// reference transcript (the item's text and a field); every other member is kept as a field of
// the item (strings, integers and numbers as they are; booleans, null, arrays and objects as
// their JSON text in a string; a member that is a number on one line and not on another of the
// same batch makes the later line an error record). The manifest's `duration`, `sample_rate`,
// `channels` and `audio_codec` are replaced by the decoded ones.
// A line that is not JSON, not an object or has no audio_filepath string, and a line naming a
// file that is missing, empty, not audio, damaged, cut short or without samples, is an error
// record naming the manifest, its line and the file.
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "core/doc_batch.h"
#include "io/shard_batches.h"

namespace winnow {

class AudioManifestReader {
 public:
  AudioManifestReader(std::string path, uint32_t shard_index, size_t batch_records);

  // Batches of at most batch_records lines (fewer when their samples pass kMaxBatchSampleBytes),
  // then the end marker; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const { return bytes_read_; }

  // Decoded samples a batch holds at most (about 17 minutes of 16 kHz mono): a batch carries
  // its items' samples to the stages.
  static constexpr uint64_t kMaxBatchSampleBytes = 64ull << 20;

 private:
  // Adds the line's item or error record; returns the bytes of samples it added.
  uint64_t read_line(DocBatch& batch, std::string_view line);

  std::string path_;
  std::string folder_;  // audio_filepath is relative to it
  uint32_t shard_;
  size_t batch_records_;
  std::ifstream in_;
  ShardBatches batches_{shard_};
  bool ended_ = false;
  uint64_t line_number_ = 0;
  uint64_t row_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace winnow
