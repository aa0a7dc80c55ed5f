#include "io/audio_file_reader.h"

#include <filesystem>

#include "io/audio_item.h"

namespace winnow {

AudioFileReader::AudioFileReader(std::string path, uint32_t shard_index)
    : path_(std::move(path)), shard_(shard_index) {}

std::unique_ptr<DocBatch> AudioFileReader::next() {
  // One batch holds the file's one item; the next is the end marker.
  auto batch = batches_.next(item_read_);
  if (!batch || batch->end_of_shard) return batch;
  item_read_ = true;
  auto audio = read_audio_file(*batch, path_, "", 0, bytes_read_);
  if (!audio) return batch;
  std::string id = std::filesystem::path(path_).filename().string();
  add_audio_item(*batch, DocKey::make(shard_, 0), id, path_, 0, std::move(*audio));
  return batch;
}

}  // namespace winnow
