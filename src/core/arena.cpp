#include "core/arena.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace winnow {

std::string_view Arena::append(std::string_view bytes) {
  if (bytes.empty()) return {};
  if (chunks_.empty() || chunks_.back().capacity - chunks_.back().used < bytes.size()) {
    Chunk chunk;
    chunk.capacity = std::max(chunk_bytes_, bytes.size());
    chunk.data = std::make_unique_for_overwrite<char[]>(chunk.capacity);
    chunks_.push_back(std::move(chunk));
  }
  Chunk& chunk = chunks_.back();
  char* dst = chunk.data.get() + chunk.used;
  std::memcpy(dst, bytes.data(), bytes.size());
  chunk.used += bytes.size();
  used_total_ += bytes.size();
  return {dst, bytes.size()};
}

bool Arena::owns(std::string_view bytes) const {
  // std::less gives a total order on pointers, so this is well defined for unrelated buffers.
  std::less<const char*> before;
  for (const Chunk& chunk : chunks_) {
    const char* begin = chunk.data.get();
    if (!before(bytes.data(), begin) && !before(begin + chunk.used, bytes.data() + bytes.size())) {
      return true;
    }
  }
  return false;
}

}  // namespace winnow
