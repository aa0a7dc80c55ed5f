#pragma once
// WebDatasetReader: a WebDataset shard (a tar, plain or gzip/zstd/bzip2/xz compressed, read
// with libarchive) → batches of image items, one per sample. A sample is the run of
// consecutive members sharing a key: the member's path up to the first dot of its file name
// ("dir/000123.jpg" and "dir/000123.txt" → key "dir/000123"), as WebDataset groups them. The
// item's id is the key; its payload holds every member's bytes, unchanged, in one buffer
// (core/payload.h members: name, mtime, mode), the item's own bytes being the image member's
// (.jpg, .jpeg, .png, .webp, .gif, .bmp, .tif, .tiff; the first one when there are several),
// and its text the caption, the .txt member's (invalid UTF-8 replaced by U+FFFD), which the
// text stages read.
//
// Bad input is an error record naming the file, the member and its byte offset, never a
// crash: a member over `max_bytes` (record_too_large), an image whose header cannot be read
// (undecodable_image), one with more pixels than `max_pixels` (image_too_large: a
// decompression bomb, refused from its header before any decoder sees it), a sample without an
// image (sample_without_image), a sample whose key came before in the tar or with two members
// of one extension (duplicate_key: one id would name two items) — reading goes on with the next
// sample — and a damaged tar
// header or stream (corrupt_tar) or a member cut short (truncated_tar): the samples read whole
// before it are kept and the rest of the file is lost.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/doc_batch.h"
#include "io/media_file_reader.h"

namespace winnow {

struct WebDatasetOptions {
  MediaFileOptions media;  // max_bytes per member, max_pixels per image
  size_t batch_records = 1024;
  size_t batch_bytes = 8 << 20;
};

class WebDatasetReader {
 public:
  WebDatasetReader(std::string path, uint32_t shard_index, WebDatasetOptions options);
  ~WebDatasetReader();

  // The next batch; the last one is empty and marked end_of_shard; null after it.
  std::unique_ptr<DocBatch> next();
  uint64_t compressed_bytes_read() const;

  // .tar, .tar.gz, .tgz, .tar.zst, .tar.bz2, .tar.xz
  static bool is_tar_path(std::string_view path);
  // "ustar" at offset 257 (an uncompressed tar named otherwise).
  static bool has_tar_magic(const std::string& path);
  // WebDataset's split of a member name: key (up to the first dot of the file name) and
  // extension (the rest, lower-cased).
  static std::pair<std::string, std::string> split_name(std::string_view name);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace winnow
