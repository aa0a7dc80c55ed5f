#pragma once
// Payload: a media item's bytes, or a reference to a file that holds them, carried beside the
// text columns of a DocBatch and never through its text arena. Bytes in memory live in a
// shared buffer, so a child (a part of a sample, a crop) can refer to a slice of its parent's
// bytes without a copy; a file reference names a file on disk with an optional byte range and
// time span (a video, a clip a stage wrote).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

// One file of a multi-file item: a WebDataset sample's tar members (image, caption, metadata)
// travel together so that a writer can put them back byte for byte.
struct PayloadMember {
  std::string name;     // the member's path in the tar ("dir/000123.jpg")
  uint64_t offset = 0;  // its bytes: a slice of the payload's buffer
  uint64_t size = 0;
  int64_t mtime = 0;  // from the tar header, written back unchanged
  uint32_t mode = 0644;
};

struct Payload {
  std::shared_ptr<const std::string> buffer;  // bytes in memory (null for a file reference)
  uint64_t offset = 0;                        // the item's slice of `buffer`
  uint64_t size = 0;
  std::string path;         // a file reference when not empty
  uint64_t byte_begin = 0;  // byte range in `path`; byte_end 0 = to the end of the file
  uint64_t byte_end = 0;
  double time_begin = 0;  // seconds; time_end 0 = to the end
  double time_end = 0;
  std::string media_type;  // "image/png", "video/mp4"... (empty: unknown)
  // A sample of several files (WebDataset): every member, the item's own bytes among them;
  // empty for an item of one file.
  std::vector<PayloadMember> members;

  static Payload of_bytes(std::string bytes, std::string media_type);
  static Payload of_file(std::string path, std::string media_type);

  bool empty() const { return !buffer && path.empty(); }
  bool in_memory() const { return buffer != nullptr; }
  std::string_view bytes() const;  // empty for a file reference
  std::string_view member_bytes(const PayloadMember& member) const;
  // A slice of an in-memory payload, sharing its buffer.
  Payload slice(uint64_t offset_in_item, uint64_t length) const;
};

}  // namespace winnow
