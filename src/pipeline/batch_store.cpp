#include "pipeline/batch_store.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>

namespace winnow {

namespace fs = std::filesystem;

BatchStore::BatchStore(std::string dir, size_t shards, size_t first_stage,
                       std::string point_name, MaterializeMode mode)
    : dir_(std::move(dir)),
      first_stage_(first_stage),
      point_name_(std::move(point_name)),
      mode_(mode) {
  for (size_t i = 0; i < shards; ++i) {
    files_.push_back({fmt::format("{}/shard-{:08}.wnb.zst", dir_, i), 0});
  }
}

BatchStore::~BatchStore() { remove(); }

StageRunner::Part BatchStore::store_part() {
  return {"store", [this](DocBatch& batch) { return store(batch); }, {}, {}};
}

Status BatchStore::store(const DocBatch& batch) {
  if (given_up_.load()) return Status::ok();
  auto begin = std::chrono::steady_clock::now();
  StoredBatchWriter* writer;
  {
    std::lock_guard lock(mutex_);
    auto& slot = writers_[batch.shard];
    if (!slot) {
      std::error_code ec;
      fs::create_directories(dir_, ec);
      if (ec) return Status::errorf("cannot create {}: {}", dir_, ec.message());
      auto created = StoredBatchWriter::create(files_.at(batch.shard).path);
      if (!created.is_ok()) return created.status();
      slot = std::move(created).value();
    }
    writer = slot.get();
  }
  WINNOW_RETURN_IF_ERROR(writer->store(batch));
  store_ns_ += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                           begin)
          .count());
  if (++batches_ == kBatchesBeforeDeciding) decide();
  return Status::ok();
}

void BatchStore::decide() {
  if (mode_ != MaterializeMode::kAuto || decided_.exchange(true)) return;
  // Storing pays once to write and once to read back (about the same): worth it when running
  // the stages before the point again would cost more than that.
  uint64_t upstream = upstream_busy_ns_ ? upstream_busy_ns_() : 0;
  if (upstream <= 2 * store_ns_.load()) given_up_ = true;
}

Status BatchStore::commit() {
  if (given_up_.load()) return Status::ok();
  // A shard with no batch stored (an empty input) still gets its (empty) file.
  for (uint32_t shard = 0; shard < files_.size(); ++shard) {
    auto& slot = writers_[shard];
    if (!slot) {
      std::error_code ec;
      fs::create_directories(dir_, ec);
      auto created = StoredBatchWriter::create(files_[shard].path);
      if (!created.is_ok()) return created.status();
      slot = std::move(created).value();
    }
    WINNOW_RETURN_IF_ERROR(slot->commit());
  }
  writers_.clear();
  for (InputFile& file : files_) {
    std::error_code ec;
    file.size = fs::file_size(file.path, ec);
  }
  committed_ = true;
  return Status::ok();
}

PassOrigin BatchStore::origin() const {
  return {&files_, InputFormat::kStored, first_stage_, "the batches stored before " + point_name_};
}

uint64_t BatchStore::stored_bytes() const {
  uint64_t total = 0;
  for (const InputFile& file : files_) total += file.size;
  return total;
}

void BatchStore::remove() {
  writers_.clear();  // uncommitted files remove their temporaries
  std::error_code ec;
  fs::remove_all(dir_, ec);
  committed_ = false;
}

}  // namespace winnow
