#pragma once
// PartitionedSpill: fixed-size records gathered from many threads, kept in memory up to a
// budget and spilled to checksummed files (spill_file.h) partitioned by a hash of the record,
// then handed back one partition at a time. Records that must meet (same LSH bucket, same
// exact hash) hash alike, so each partition can be sorted and grouped on its own, in parallel.
//
// Memory: at most `memory_bytes` of records are buffered while adding; when processing, a
// partition larger than its thread's share of the budget is split again by another hash
// level on disk, so the peak stays bounded whatever the input size (the files grow instead).
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/hash.h"
#include "core/status.h"
#include "dedup/spill_file.h"

namespace winnow {

struct SpillStats {
  uint64_t records = 0;
  uint64_t spilled_bytes = 0;  // written to spill files, re-splits included
  uint64_t flushes = 0;        // times the in-memory buffers were written out
  uint64_t splits = 0;         // partitions split again because they outgrew the budget
};

template <typename Record>
class PartitionedSpill {
  static_assert(std::is_trivially_copyable_v<Record>);

 public:
  using HashFn = uint64_t (*)(const Record&);
  using PartitionFn = std::function<Status(std::vector<Record>&)>;

  PartitionedSpill(std::string dir, std::string name, size_t partitions, size_t memory_bytes,
                   HashFn hash)
      : dir_(std::move(dir)),
        name_(std::move(name)),
        memory_bytes_(std::max<size_t>(memory_bytes, 64 * sizeof(Record))),
        hash_(hash),
        buffers_(partitions),
        writers_(partitions),
        written_(partitions, 0) {}

  // Thread-safe.
  Status add(const Record* records, size_t n) {
    thread_local std::vector<uint32_t> parts;
    parts.resize(n);
    for (size_t i = 0; i < n; ++i) parts[i] = partition_of(hash_(records[i]), 0, buffers_.size());
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < n; ++i) buffers_[parts[i]].push_back(records[i]);
    buffered_ += n * sizeof(Record);
    stats_.records += n;
    if (buffered_ > memory_bytes_) return flush_locked();
    return Status::ok();
  }

  // Calls fn once per non-empty partition from up to `threads` threads; fn may reorder the
  // vector. Spill files are verified as they are read and removed once used.
  Status for_each_partition(int threads, const PartitionFn& fn) {
    if (spilled_) {
      WINNOW_RETURN_IF_ERROR(flush_locked());
      for (auto& w : writers_) {
        if (w) WINNOW_RETURN_IF_ERROR(w->close());
        w.reset();
      }
    }
    const size_t per_thread = std::max<size_t>(memory_bytes_ / std::max(threads, 1), 4096);
    std::atomic<size_t> next{0};
    std::mutex failure_mutex;
    Status failure;
    std::atomic<bool> failed{false};
    auto worker = [&] {
      for (size_t p = next++; p < buffers_.size() && !failed; p = next++) {
        Status s = spilled_ ? process_file(file_name(p, 0, 0), written_[p], 1, per_thread, fn)
                            : fn(buffers_[p]);
        if (!spilled_) std::vector<Record>().swap(buffers_[p]);
        if (!s.is_ok()) {
          std::lock_guard lock(failure_mutex);
          if (!failed.exchange(true)) failure = s;
        }
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    return failure;
  }

  const SpillStats& stats() const { return stats_; }
  bool spilled() const { return spilled_; }
  // Paths of the top-level spill files written so far (tests corrupt them).
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (size_t p = 0; p < writers_.size(); ++p) {
      if (written_[p] > 0) out.push_back(file_name(p, 0, 0));
    }
    return out;
  }
  // Writes what is buffered to the files and closes them (tests, to corrupt them).
  Status flush() {
    std::lock_guard lock(mutex_);
    WINNOW_RETURN_IF_ERROR(flush_locked());
    for (auto& w : writers_) {
      if (w) WINNOW_RETURN_IF_ERROR(w->close());
    }
    return Status::ok();
  }

 private:
  static uint32_t partition_of(uint64_t hash, int level, size_t fanout) {
    return static_cast<uint32_t>(hash_u64(hash, 0x5eed0000u + level) % fanout);
  }

  std::string file_name(size_t partition, int level, uint64_t parent) const {
    return dir_ + "/" + name_ + "-" + std::to_string(level) + "-" + std::to_string(parent) + "-" +
           std::to_string(partition) + ".spill";
  }

  Status flush_locked() {
    if (!spilled_) std::filesystem::create_directories(dir_);
    spilled_ = true;
    ++stats_.flushes;
    for (size_t p = 0; p < buffers_.size(); ++p) {
      if (buffers_[p].empty()) continue;
      if (written_[p] == 0) {
        writers_[p] = std::make_unique<SpillWriter>();
        WINNOW_RETURN_IF_ERROR(writers_[p]->open(file_name(p, 0, 0)));
      }
      WINNOW_RETURN_IF_ERROR(
          writers_[p]->append_block(buffers_[p].data(), buffers_[p].size() * sizeof(Record)));
      written_[p] = writers_[p]->bytes_written();
      stats_.spilled_bytes += buffers_[p].size() * sizeof(Record);
      std::vector<Record>().swap(buffers_[p]);
    }
    buffered_ = 0;
    return Status::ok();
  }

  // Reads a spill file (verifying it) into records; a file over the budget is split first.
  Status process_file(const std::string& path, uint64_t bytes, int level, size_t budget,
                      const PartitionFn& fn) {
    if (bytes == 0) return Status::ok();
    constexpr int kMaxLevel = 6;
    constexpr size_t kFanout = 16;
    SpillReader reader;
    WINNOW_RETURN_IF_ERROR(reader.open(path, bytes));
    std::string block;
    if (bytes > budget && level < kMaxLevel) {
      {
        std::lock_guard lock(mutex_);
        ++stats_.splits;
      }
      const uint64_t parent = hash64(path);
      std::vector<SpillWriter> subs(kFanout);
      std::vector<std::vector<Record>> pending(kFanout);
      const size_t flush_at = std::max<size_t>(budget / kFanout / sizeof(Record), 256);
      for (size_t i = 0; i < kFanout; ++i) {
        WINNOW_RETURN_IF_ERROR(subs[i].open(file_name(i, level, parent)));
      }
      auto flush_sub = [&](size_t i) -> Status {
        if (pending[i].empty()) return Status::ok();
        WINNOW_RETURN_IF_ERROR(
            subs[i].append_block(pending[i].data(), pending[i].size() * sizeof(Record)));
        {
          std::lock_guard lock(mutex_);
          stats_.spilled_bytes += pending[i].size() * sizeof(Record);
        }
        pending[i].clear();
        return Status::ok();
      };
      while (true) {
        auto more = reader.next_block(block);
        if (!more.is_ok()) return more.status();
        if (!*more) break;
        WINNOW_RETURN_IF_ERROR(check_block(path, block));
        const size_t n = block.size() / sizeof(Record);
        for (size_t r = 0; r < n; ++r) {
          Record rec;
          std::memcpy(&rec, block.data() + r * sizeof(Record), sizeof(Record));
          uint32_t i = partition_of(hash_(rec), level, kFanout);
          pending[i].push_back(rec);
          if (pending[i].size() >= flush_at) WINNOW_RETURN_IF_ERROR(flush_sub(i));
        }
      }
      std::filesystem::remove(path);
      std::vector<uint64_t> sizes(kFanout);
      for (size_t i = 0; i < kFanout; ++i) {
        WINNOW_RETURN_IF_ERROR(flush_sub(i));
        sizes[i] = subs[i].bytes_written();
        WINNOW_RETURN_IF_ERROR(subs[i].close());
      }
      pending.clear();
      for (size_t i = 0; i < kFanout; ++i) {
        WINNOW_RETURN_IF_ERROR(
            process_file(file_name(i, level, parent), sizes[i], level + 1, budget, fn));
      }
      return Status::ok();
    }
    std::vector<Record> records;
    records.reserve(bytes / sizeof(Record));
    while (true) {
      auto more = reader.next_block(block);
      if (!more.is_ok()) return more.status();
      if (!*more) break;
      WINNOW_RETURN_IF_ERROR(check_block(path, block));
      size_t old = records.size();
      records.resize(old + block.size() / sizeof(Record));
      std::memcpy(records.data() + old, block.data(), block.size());
    }
    std::filesystem::remove(path);
    return fn(records);
  }

  static Status check_block(const std::string& path, const std::string& block) {
    if (block.size() % sizeof(Record) != 0) {
      return Status::errorf("spill file {} is corrupt: a block is not whole records", path);
    }
    return Status::ok();
  }

  std::string dir_;
  std::string name_;
  size_t memory_bytes_;
  HashFn hash_;
  std::mutex mutex_;
  std::vector<std::vector<Record>> buffers_;
  std::vector<std::unique_ptr<SpillWriter>> writers_;
  std::vector<uint64_t> written_;
  size_t buffered_ = 0;
  bool spilled_ = false;
  SpillStats stats_;
};

}  // namespace winnow
