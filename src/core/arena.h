#pragma once
// Arena: append-only byte storage whose views stay valid for the arena's life (chunks never
// move), so a DocBatch can hand out string_views into it while it keeps growing.
#include <memory>
#include <string_view>
#include <vector>

namespace winnow {

class Arena {
 public:
  explicit Arena(size_t chunk_bytes = 1 << 20) : chunk_bytes_(chunk_bytes) {}

  std::string_view append(std::string_view bytes);
  // Whether `bytes` lies inside one of the arena's chunks (a view it handed out, or part of one).
  bool owns(std::string_view bytes) const;
  size_t bytes_used() const { return used_total_; }

 private:
  struct Chunk {
    std::unique_ptr<char[]> data;
    size_t capacity = 0;
    size_t used = 0;
  };
  std::vector<Chunk> chunks_;
  size_t chunk_bytes_;
  size_t used_total_ = 0;
};

}  // namespace winnow
