#include "dedup/tile_file.h"

#include <algorithm>
#include <cstring>

namespace winnow {

size_t TileFile::rows_of(size_t tile) const {
  return std::min(tile_rows, rows - std::min(rows, tile * tile_rows));
}

uint64_t TileFile::offset_of(size_t tile) const {
  return static_cast<uint64_t>(tile) *
         (kSpillBlockHeaderBytes + static_cast<uint64_t>(tile_rows) * dims * sizeof(float));
}

Status TileFileWriter::open(const std::string& path, size_t dims, size_t tile_rows) {
  file_ = TileFile{path, 0, 0, dims, std::max<size_t>(tile_rows, 1)};
  pending_.clear();
  pending_.reserve(file_.tile_rows * dims);
  return writer_.open(path);
}

Status TileFileWriter::add_row(const float* row) {
  pending_.insert(pending_.end(), row, row + file_.dims);
  ++file_.rows;
  return pending_.size() == file_.tile_rows * file_.dims ? flush() : Status::ok();
}

Status TileFileWriter::flush() {
  if (pending_.empty()) return Status::ok();
  WINNOW_RETURN_IF_ERROR(writer_.append_block(pending_.data(), pending_.size() * sizeof(float)));
  pending_.clear();
  return Status::ok();
}

Result<TileFile> TileFileWriter::close() {
  WINNOW_RETURN_IF_ERROR(flush());
  std::vector<float>().swap(pending_);
  file_.bytes = writer_.bytes_written();
  WINNOW_RETURN_IF_ERROR(writer_.close());
  return file_;
}

Status TileReader::open(const TileFile& file) {
  file_ = file;
  return reader_.open(file.path, file.bytes);
}

Status TileReader::read(size_t tile, std::vector<float>& out) {
  if (tile >= file_.tiles()) {
    return Status::errorf("tile file {}: no tile {} (it has {})", file_.path, tile, file_.tiles());
  }
  WINNOW_RETURN_IF_ERROR(reader_.seek(file_.offset_of(tile)));
  auto read = reader_.next_block(block_);
  if (!read.is_ok()) return read.status();
  const size_t floats = file_.rows_of(tile) * file_.dims;
  // The checksum holds, but a block of another size is not this tile (a wrong offset).
  if (!*read || block_.size() != floats * sizeof(float)) {
    return Status::errorf("spill file {} is corrupt: tile {} at byte {} has {} bytes, expected {}",
                          file_.path, tile, file_.offset_of(tile), block_.size(),
                          floats * sizeof(float));
  }
  out.resize(floats);
  std::memcpy(out.data(), block_.data(), block_.size());
  return Status::ok();
}

}  // namespace winnow
