#include "io/media_file_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/image_header.h"

namespace winnow {

MediaFileReader::MediaFileReader(std::string path, uint32_t shard_index, MediaFileOptions options)
    : path_(std::move(path)), shard_(shard_index), options_(options) {}

std::optional<std::string> MediaFileReader::image_media_type(std::string_view head) {
  return ImageHeader::media_type_of(head);
}

std::unique_ptr<DocBatch> MediaFileReader::next() {
  // One batch holds the file's one item; the next is the end marker.
  auto batch = batches_.next(item_read_);
  if (!batch || batch->end_of_shard) return batch;
  item_read_ = true;
  auto error = [&](InputError kind, std::string message, std::string_view excerpt = {}) {
    batch->errors.push_back({kind, 0, 0, fmt::format("{}: {}", path_, message),
                             std::string(excerpt.substr(0, 64))});
    return std::move(batch);
  };
  std::error_code ec;
  uint64_t size = std::filesystem::file_size(path_, ec);
  if (ec) return error(InputError::kUnreadableFile, "cannot read: " + ec.message());
  if (size == 0) return error(InputError::kEmptyFile, "empty file");
  if (size > options_.max_bytes) {
    return error(InputError::kRecordTooLarge,
                 fmt::format("{} bytes, over the limit of {} (input.max_record_bytes)", size,
                             options_.max_bytes));
  }
  std::ifstream in(path_, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return error(InputError::kUnreadableFile, fmt::format("cannot read: {}", std::strerror(errno)));
  }
  bytes_read_ = size;
  batch->raw_input_bytes = size;
  auto media_type = image_media_type(bytes);
  if (!media_type) {
    return error(InputError::kUnknownMedia,
                 "not an image winnow can identify (PNG, JPEG, GIF, WebP, BMP, TIFF) by its "
                 "first bytes",
                 bytes);
  }
  auto header = ImageHeader::parse(bytes);
  if (!header) {
    return error(InputError::kUndecodableImage,
                 fmt::format("a {} whose header cannot be read", *media_type), bytes);
  }
  if (header->pixels() > options_.max_pixels) {
    return error(InputError::kImageTooLarge,
                 fmt::format("{}x{}, {} pixels, over the limit of {} (input.max_image_pixels)",
                             header->width, header->height, header->pixels(), options_.max_pixels));
  }
  std::string id = std::filesystem::path(path_).filename().string();
  batch->add_item(DocKey::make(shard_, 0), ItemKind::kImage, id,
                  Payload::of_bytes(std::move(bytes), std::move(*media_type)), 0);
  return batch;
}

}  // namespace winnow
