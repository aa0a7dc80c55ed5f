#include "dedup/doc_info_log.h"

#include <cstring>
#include <filesystem>

namespace winnow {

DocInfoLog::DocInfoLog(std::string path, size_t memory_bytes)
    : path_(std::move(path)), memory_bytes_(std::max<size_t>(memory_bytes, 4096)) {}

void DocInfoLog::serialize(std::string& out, uint64_t doc, double metric, std::string_view id) {
  const uint32_t id_bytes = static_cast<uint32_t>(id.size());
  char head[20];
  std::memcpy(head, &doc, 8);
  std::memcpy(head + 8, &metric, 8);
  std::memcpy(head + 16, &id_bytes, 4);
  out.append(head, sizeof head);
  out.append(id);
}

Status DocInfoLog::add(std::string_view serialized) {
  std::lock_guard lock(mutex_);
  buffer_.append(serialized);
  if (buffer_.size() < memory_bytes_) return Status::ok();
  if (!writer_) {
    std::filesystem::create_directories(std::filesystem::path(path_).parent_path());
    writer_ = std::make_unique<SpillWriter>();
    WINNOW_RETURN_IF_ERROR(writer_->open(path_));
  }
  WINNOW_RETURN_IF_ERROR(writer_->append_block(buffer_.data(), buffer_.size()));
  buffer_.clear();
  return Status::ok();
}

bool DocInfoLog::visit_serialized(std::string_view block, const Visit& visit) {
  size_t at = 0;
  while (at < block.size()) {
    if (block.size() - at < 20) return false;
    uint64_t doc;
    double metric;
    uint32_t id_bytes;
    std::memcpy(&doc, block.data() + at, 8);
    std::memcpy(&metric, block.data() + at + 8, 8);
    std::memcpy(&id_bytes, block.data() + at + 16, 4);
    at += 20;
    if (block.size() - at < id_bytes) return false;
    visit(doc, metric, block.substr(at, id_bytes));
    at += id_bytes;
  }
  return true;
}

Status DocInfoLog::for_each(const Visit& visit) {
  auto visit_block = [&](std::string_view block) {
    return visit_serialized(block, visit) ? Status::ok()
                                          : Status::errorf("spill file {} is corrupt", path_);
  };
  if (writer_) WINNOW_RETURN_IF_ERROR(read_back_blocks(*writer_, visit_block));
  return visit_block(buffer_);
}

}  // namespace winnow
