#include "dedup/spill_file.h"

#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace winnow {

namespace {

constexpr uint32_t kMagic = 0x4C505357;  // "WSPL"
constexpr uint32_t kVersion = 1;

struct BlockHeader {
  uint32_t magic;
  uint32_t version;
  uint64_t payload_bytes;
  uint64_t checksum;
};
static_assert(sizeof(BlockHeader) == kSpillBlockHeaderBytes);

}  // namespace

SpillWriter::~SpillWriter() {
  if (file_) std::fclose(file_);
}

Status SpillWriter::open(const std::string& path) {
  path_ = path;
  bytes_ = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) return Status::errorf("cannot create spill file {}: {}", path, std::strerror(errno));
  return Status::ok();
}

Status SpillWriter::append_block(const void* data, size_t bytes) {
  BlockHeader header{kMagic, kVersion, bytes, XXH3_64bits(data, bytes)};
  if (std::fwrite(&header, sizeof header, 1, file_) != 1 ||
      (bytes > 0 && std::fwrite(data, bytes, 1, file_) != 1)) {
    return Status::errorf("cannot write spill file {}: {}", path_, std::strerror(errno));
  }
  bytes_ += sizeof header + bytes;
  return Status::ok();
}

Status SpillWriter::close() {
  if (!file_) return Status::ok();
  int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) return Status::errorf("cannot write spill file {}: {}", path_, std::strerror(errno));
  return Status::ok();
}

SpillReader::~SpillReader() {
  if (file_) std::fclose(file_);
}

Status SpillReader::open(const std::string& path, uint64_t expected_bytes) {
  path_ = path;
  offset_ = 0;
  std::error_code ec;
  size_ = std::filesystem::file_size(path, ec);
  if (ec) return Status::errorf("cannot read spill file {}: {}", path, ec.message());
  if (size_ != expected_bytes) {
    return Status::errorf("spill file {} is corrupt: {} bytes on disk, {} written", path, size_,
                          expected_bytes);
  }
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) return Status::errorf("cannot read spill file {}: {}", path, std::strerror(errno));
  return Status::ok();
}

Result<bool> SpillReader::next_block(std::string& payload) {
  if (offset_ == size_) return false;
  BlockHeader header;
  if (size_ - offset_ < sizeof header || std::fread(&header, sizeof header, 1, file_) != 1) {
    return Status::errorf("spill file {} is corrupt: truncated block header at byte {}", path_,
                          offset_);
  }
  if (header.magic != kMagic || header.version != kVersion ||
      header.payload_bytes > size_ - offset_ - sizeof header) {
    return Status::errorf("spill file {} is corrupt: bad block header at byte {}", path_, offset_);
  }
  payload.resize(header.payload_bytes);
  if (header.payload_bytes > 0 && std::fread(payload.data(), header.payload_bytes, 1, file_) != 1) {
    return Status::errorf("spill file {} is corrupt: truncated block at byte {}", path_, offset_);
  }
  if (XXH3_64bits(payload.data(), payload.size()) != header.checksum) {
    return Status::errorf("spill file {} is corrupt: checksum mismatch in the block at byte {}",
                          path_, offset_);
  }
  offset_ += sizeof header + header.payload_bytes;
  return true;
}

Status SpillReader::seek(uint64_t offset) {
  if (offset > size_ || std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0) {
    return Status::errorf("spill file {}: cannot seek to byte {} of {}", path_, offset, size_);
  }
  offset_ = offset;
  return Status::ok();
}

Status read_back_blocks(SpillWriter& writer,
                        const std::function<Status(std::string_view block)>& visit) {
  uint64_t bytes = writer.bytes_written();
  std::string path = writer.path();
  WINNOW_RETURN_IF_ERROR(writer.close());
  SpillReader reader;
  WINNOW_RETURN_IF_ERROR(reader.open(path, bytes));
  std::string block;
  while (true) {
    auto more = reader.next_block(block);
    if (!more.is_ok()) return more.status();
    if (!*more) return Status::ok();
    WINNOW_RETURN_IF_ERROR(visit(block));
  }
}

SpillLog::SpillLog(std::string path, size_t memory_bytes)
    : path_(std::move(path)), memory_bytes_(std::max<size_t>(memory_bytes, 4096)) {}

Status SpillLog::add(std::string_view serialized) {
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

Status SpillLog::for_each_block(const std::function<Status(std::string_view block)>& visit) {
  if (writer_) WINNOW_RETURN_IF_ERROR(read_back_blocks(*writer_, visit));
  return visit(buffer_);
}

}  // namespace winnow
