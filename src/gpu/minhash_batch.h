#pragma once
// MinHashBatch: one batch of documents for the GPU MinHash, laid out as the device reads it,
// and its cut into chunks that are copied and computed in turn (two streams: chunk c + 1's
// copy overlaps chunk c's kernels). Plain C++: built and tested without a device.
//
// A document is either text the device shingles itself (character windows of `window` bytes
// over ASCII text longer than one window: the CPU shingler's hot path, bit for bit) or the
// shingle hashes the CPU computed (word shingles, non-ASCII text, short texts).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace winnow::gpu {

// Counts are 64-bit on the host (a text may exceed 4 GiB); the device reads them as 32-bit
// values and refuses a chunk holding a document beyond that (minhash_device.cu).
struct MinHashDoc {
  uint64_t text_offset = 0;  // into text (device-shingled)
  uint64_t text_bytes = 0;   // 0: the hashes come from the host
  uint64_t host_offset = 0;  // into host_hashes (host-hashed)
  uint64_t hashes = 0;       // shingle hashes (windows) the document has, > 0
};

struct MinHashChunk {
  size_t begin = 0, end = 0;  // documents
  uint64_t text_begin = 0, text_end = 0;
  uint64_t host_begin = 0, host_end = 0;
  uint64_t hashes = 0;  // the chunk's hash arena on the device
};

class MinHashBatch {
 public:
  explicit MinHashBatch(int window) : window_(window) {}

  int window() const { return window_; }
  // A text the device shingles: ASCII (the caller checks), at least one window long. Returns
  // false, adding nothing, for a text shorter than one window (it has no window to hash).
  [[nodiscard]] bool add_text(std::string_view text);
  // Returns false, adding nothing, for no hashes (a document needs one to have a minimum).
  [[nodiscard]] bool add_hashes(std::span<const uint32_t> hashes);
  void clear();

  size_t size() const { return docs_.size(); }
  const std::vector<MinHashDoc>& docs() const { return docs_; }
  const std::vector<char>& text() const { return text_; }
  const std::vector<uint32_t>& host_hashes() const { return host_hashes_; }

  // Consecutive chunks of at most `max_hashes` shingle hashes each (a document larger than
  // that is a chunk of its own): the device's hash arena and the copies are sized by it.
  std::vector<MinHashChunk> chunks(uint64_t max_hashes) const;

 private:
  int window_;
  std::vector<MinHashDoc> docs_;
  std::vector<char> text_;
  std::vector<uint32_t> host_hashes_;
};

}  // namespace winnow::gpu
