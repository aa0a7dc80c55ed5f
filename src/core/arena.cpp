#include "core/arena.h"

#include <algorithm>
#include <cstring>

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

}  // namespace winnow
