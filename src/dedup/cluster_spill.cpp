#include "dedup/cluster_spill.h"

#include <fmt/format.h>

#include <filesystem>

#include "dedup/byte_codec.h"

namespace winnow {

ClusterSpill::ClusterSpill(std::string dir, size_t partitions, size_t dims,
                           size_t stream_above_bytes, size_t tile_rows)
    : dir_(std::move(dir)),
      partitions_(std::max<size_t>(partitions, 1)),
      dims_(dims),
      writers_(partitions_),
      sizes_(partitions_, 0),
      stream_above_bytes_(stream_above_bytes),
      tile_rows_(std::max<size_t>(tile_rows, 1)) {}

std::string ClusterSpill::path(size_t partition) const {
  return fmt::format("{}/clusters-{:04}.spill", dir_, partition);
}

Status ClusterSpill::write(uint32_t cluster, const std::vector<ClusterMember>& members,
                           const float* matrix, const std::vector<uint32_t>& rows) {
  const size_t p = cluster % partitions_;
  if (!writers_[p]) {
    std::filesystem::create_directories(dir_);
    writers_[p] = std::make_unique<SpillWriter>();
    WINNOW_RETURN_IF_ERROR(writers_[p]->open(path(p)));
  }
  const bool stream = rows.size() * dims_ * sizeof(float) > stream_above_bytes_;
  if (stream) {
    TileFileWriter tiles;
    WINNOW_RETURN_IF_ERROR(
        tiles.open(fmt::format("{}/cluster-{:06}.tiles.spill", dir_, cluster), dims_, tile_rows_));
    for (uint32_t row : rows) WINNOW_RETURN_IF_ERROR(tiles.add_row(matrix + size_t{row} * dims_));
    auto file = tiles.close();
    if (!file.is_ok()) return file.status();
    streamed_[cluster] = std::move(file).value();
  }
  std::string block;
  BytePacker out(block);
  out.put(cluster).put(static_cast<uint64_t>(members.size())).put(static_cast<uint8_t>(stream));
  for (const ClusterMember& m : members) {
    out.put(m.key).put(m.rank_value).put_bytes(m.id).put_bytes(m.excerpt);
  }
  if (!stream) {
    for (uint32_t row : rows) out.put_raw(matrix + size_t{row} * dims_, dims_ * sizeof(float));
  }
  WINNOW_RETURN_IF_ERROR(writers_[p]->append_block(block.data(), block.size()));
  sizes_[p] = writers_[p]->bytes_written();
  return Status::ok();
}

Status ClusterSpill::close() {
  for (auto& writer : writers_) {
    if (writer) WINNOW_RETURN_IF_ERROR(writer->close());
  }
  return Status::ok();
}

uint64_t ClusterSpill::bytes_written() const {
  uint64_t total = 0;
  for (uint64_t s : sizes_) total += s;
  return total;
}

Status ClusterSpill::read_partition(size_t partition,
                                    const std::function<Status(ClusterData&)>& visit) const {
  if (!writers_[partition]) return Status::ok();  // no cluster landed here
  SpillReader reader;
  WINNOW_RETURN_IF_ERROR(reader.open(path(partition), sizes_[partition]));
  std::string block;
  while (true) {
    auto more = reader.next_block(block);
    if (!more.is_ok()) return more.status();
    if (!*more) return Status::ok();
    ByteUnpacker in(block);
    ClusterData data;
    data.cluster = in.get<uint32_t>();
    const uint64_t count = in.get<uint64_t>();
    const bool stream = in.get<uint8_t>() != 0;
    auto tiles = streamed_.find(data.cluster);
    if (in.failed() || count > block.size() || stream != (tiles != streamed_.end())) {
      return Status::errorf("spill file {} is corrupt (a bad cluster header)", path(partition));
    }
    data.members.resize(count);
    for (ClusterMember& m : data.members) {
      m.key = in.get<uint64_t>();
      m.rank_value = in.get<double>();
      m.id = in.get_bytes();
      m.excerpt = in.get_bytes();
    }
    if (stream) {
      if (in.failed() || !in.done() || tiles->second.rows != count) {
        return Status::errorf("spill file {} is corrupt (a cut cluster)", path(partition));
      }
      data.tiles = tiles->second;
      WINNOW_RETURN_IF_ERROR(visit(data));
      continue;
    }
    std::string_view floats = in.get_raw(count * dims_ * sizeof(float));
    if (in.failed() || !in.done()) {
      return Status::errorf("spill file {} is corrupt (a cut cluster)", path(partition));
    }
    data.rows.resize(count * dims_);
    std::memcpy(data.rows.data(), floats.data(), floats.size());
    WINNOW_RETURN_IF_ERROR(visit(data));
  }
}

}  // namespace winnow
