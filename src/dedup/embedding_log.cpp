#include "dedup/embedding_log.h"

#include <filesystem>

#include "dedup/byte_codec.h"

namespace winnow {

EmbeddingLog::EmbeddingLog(std::string path, size_t memory_bytes)
    : path_(std::move(path)), memory_bytes_(std::max<size_t>(memory_bytes, 4096)) {}

void EmbeddingLog::serialize(std::string& out, const LoggedItem& item) {
  BytePacker(out)
      .put(item.key)
      .put(item.shard)
      .put(item.line)
      .put(item.rank_value)
      .put_bytes(item.id)
      .put_bytes(item.excerpt)
      .put_bytes(item.problem)
      .put_bytes(item.floats);
}

Status EmbeddingLog::add(std::string_view serialized) {
  std::lock_guard lock(mutex_);
  buffer_.append(serialized);
  if (buffer_.size() < memory_bytes_) return Status::ok();
  if (!writer_) {
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
    writer_ = std::make_unique<SpillWriter>();
    WINNOW_RETURN_IF_ERROR(writer_->open(path_));
  }
  WINNOW_RETURN_IF_ERROR(writer_->append_block(buffer_.data(), buffer_.size()));
  spilled_ = writer_->bytes_written();
  buffer_.clear();
  return Status::ok();
}

Status EmbeddingLog::visit_block(std::string_view block,
                                 const std::function<Status(const LoggedItem&)>& visit) const {
  ByteUnpacker in(block);
  while (!in.done()) {
    LoggedItem item;
    item.key = in.get<uint64_t>();
    item.shard = in.get<uint32_t>();
    item.line = in.get<uint64_t>();
    item.rank_value = in.get<double>();
    item.id = in.get_bytes();
    item.excerpt = in.get_bytes();
    item.problem = in.get_bytes();
    item.floats = in.get_bytes();
    if (in.failed()) return Status::errorf("spill file {} is corrupt (a cut record)", path_);
    WINNOW_RETURN_IF_ERROR(visit(item));
  }
  return Status::ok();
}

Status EmbeddingLog::for_each(const std::function<Status(const LoggedItem&)>& visit) {
  if (writer_) {
    WINNOW_RETURN_IF_ERROR(read_back_blocks(
        *writer_, [&](std::string_view block) { return visit_block(block, visit); }));
  }
  return visit_block(buffer_, visit);
}

}  // namespace winnow
