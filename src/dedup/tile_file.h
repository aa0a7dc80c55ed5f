#pragma once
// TileFile: a matrix's rows on disk in tiles of `tile_rows` rows (the last may be shorter), one
// checksummed spill block per tile (dedup/spill_file.h), so that a reader can fetch any tile by
// its offset and verify it alone. Semantic dedup's out-of-core pruning
// (dedup/streamed_pruner.h) writes a cluster's ranked rows here and streams them back a tile at
// a time. A damaged tile is an error naming the file and offset, never silently used.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "dedup/spill_file.h"

namespace winnow {

// What a reader needs to find and check every tile.
struct TileFile {
  std::string path;
  uint64_t bytes = 0;  // as written
  size_t rows = 0;
  size_t dims = 0;
  size_t tile_rows = 1;

  size_t tiles() const { return (rows + tile_rows - 1) / tile_rows; }
  size_t rows_of(size_t tile) const;
  // Where tile `tile` begins: every tile before it is full, so this is arithmetic.
  uint64_t offset_of(size_t tile) const;
};

class TileFileWriter {
 public:
  Status open(const std::string& path, size_t dims, size_t tile_rows);
  // Appends one row of `dims` floats; a full tile goes to disk as one block.
  Status add_row(const float* row);
  // Writes the last, partial tile and closes the file.
  Result<TileFile> close();

 private:
  Status flush();

  SpillWriter writer_;
  TileFile file_;
  std::vector<float> pending_;
};

class TileReader {
 public:
  Status open(const TileFile& file);
  // `out` = tile `tile`'s rows (rows_of(tile) x dims floats), verified.
  Status read(size_t tile, std::vector<float>& out);

 private:
  TileFile file_;
  SpillReader reader_;
  std::string block_;
};

}  // namespace winnow
