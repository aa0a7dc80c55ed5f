#include "gpu/minhash_batch.h"

namespace winnow::gpu {

bool MinHashBatch::add_text(std::string_view text) {
  // A text shorter than the window would have size - window + 1 "windows": a wrapped count
  // the device would read far past the text.
  if (window_ <= 0 || text.size() < static_cast<size_t>(window_)) return false;
  MinHashDoc doc;
  doc.text_offset = text_.size();
  doc.text_bytes = text.size();
  doc.host_offset = host_hashes_.size();
  doc.hashes = text.size() - static_cast<size_t>(window_) + 1;
  text_.insert(text_.end(), text.begin(), text.end());
  docs_.push_back(doc);
  return true;
}

bool MinHashBatch::add_hashes(std::span<const uint32_t> hashes) {
  if (hashes.empty()) return false;
  MinHashDoc doc;
  doc.text_offset = text_.size();
  doc.host_offset = host_hashes_.size();
  doc.hashes = hashes.size();
  host_hashes_.insert(host_hashes_.end(), hashes.begin(), hashes.end());
  docs_.push_back(doc);
  return true;
}

void MinHashBatch::clear() {
  docs_.clear();
  text_.clear();
  host_hashes_.clear();
}

std::vector<MinHashChunk> MinHashBatch::chunks(uint64_t max_hashes) const {
  std::vector<MinHashChunk> out;
  MinHashChunk current;
  auto close = [&](size_t end) {
    current.end = end;
    const MinHashDoc& last = docs_[end - 1];
    current.text_end = last.text_offset + last.text_bytes;
    current.host_end = last.host_offset + (last.text_bytes ? 0 : last.hashes);
    out.push_back(current);
  };
  for (size_t i = 0; i < docs_.size(); ++i) {
    const MinHashDoc& doc = docs_[i];
    if (i > current.begin && current.hashes + doc.hashes > max_hashes) {
      close(i);
      current = MinHashChunk{};
      current.begin = i;
    }
    if (i == current.begin) {
      current.text_begin = doc.text_offset;
      current.host_begin = doc.host_offset;
    }
    current.hashes += doc.hashes;
  }
  if (!docs_.empty()) close(docs_.size());
  return out;
}

}  // namespace winnow::gpu
