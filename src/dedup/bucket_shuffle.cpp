#include "dedup/bucket_shuffle.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>

#include "dedup/spill_file.h"

namespace winnow {

int bucket_owner(uint64_t hash, int ranks) {
  return static_cast<int>(hash_u64(hash, 0x0a11c0deu) % static_cast<uint64_t>(ranks));
}

Status shuffle_bucket_records(dist::Comm& comm, PartitionedSpill<BucketRecord>& local,
                              PartitionedSpill<BucketRecord>& owned,
                              PartitionedSpill<BucketRecord>::HashFn hash,
                              const std::string& scratch_dir, size_t block_bytes, int threads,
                              ShuffleStats& stats) {
  const int ranks = comm.size();
  const int me = comm.rank();
  const size_t block_records = std::max<size_t>(block_bytes / sizeof(BucketRecord), 1);

  // 1. Sort the records by owner: this rank's own go straight to `owned`, the others to one
  // outgoing file per destination, in blocks.
  std::error_code ec;
  std::filesystem::create_directories(scratch_dir, ec);
  std::vector<std::unique_ptr<SpillWriter>> outgoing(static_cast<size_t>(ranks));
  std::vector<std::vector<BucketRecord>> pending(static_cast<size_t>(ranks));
  std::vector<uint64_t> blocks(static_cast<size_t>(ranks), 0);  // written to each file
  auto flush = [&](int to) -> Status {
    std::vector<BucketRecord>& records = pending[static_cast<size_t>(to)];
    if (records.empty()) return Status::ok();
    std::unique_ptr<SpillWriter>& writer = outgoing[static_cast<size_t>(to)];
    if (!writer) {
      writer = std::make_unique<SpillWriter>();
      WINNOW_RETURN_IF_ERROR(
          writer->open(scratch_dir + "/to-rank-" + std::to_string(to) + ".spill"));
    }
    // Blocks of at most block_records: one is what a round sends to one rank.
    for (size_t at = 0; at < records.size(); at += block_records) {
      const size_t n = std::min(block_records, records.size() - at);
      WINNOW_RETURN_IF_ERROR(writer->append_block(records.data() + at, n * sizeof(BucketRecord)));
      ++blocks[static_cast<size_t>(to)];
    }
    stats.records_sent += records.size();
    stats.bytes_sent += records.size() * sizeof(BucketRecord);
    records.clear();
    return Status::ok();
  };
  // Partitions are sorted by owner in parallel; the outgoing files are shared (one lock). The
  // order blocks reach a file varies with the threads, which changes nothing: the owner sorts
  // each partition before linking.
  std::mutex outgoing_mutex;
  Status status = local.for_each_partition(threads, [&](std::vector<BucketRecord>& records) {
    std::vector<std::vector<BucketRecord>> by_owner(static_cast<size_t>(ranks));
    for (const BucketRecord& record : records) {
      by_owner[static_cast<size_t>(bucket_owner(hash(record), ranks))].push_back(record);
    }
    std::vector<BucketRecord>().swap(records);
    std::vector<BucketRecord>& own = by_owner[static_cast<size_t>(me)];
    WINNOW_RETURN_IF_ERROR(owned.add(own.data(), own.size()));
    std::lock_guard lock(outgoing_mutex);
    for (int to = 0; to < ranks; ++to) {
      if (to == me) continue;
      std::vector<BucketRecord>& queue = pending[static_cast<size_t>(to)];
      queue.insert(queue.end(), by_owner[static_cast<size_t>(to)].begin(),
                   by_owner[static_cast<size_t>(to)].end());
      if (queue.size() >= block_records) WINNOW_RETURN_IF_ERROR(flush(to));
    }
    return Status::ok();
  });
  std::vector<uint64_t> file_bytes(static_cast<size_t>(ranks), 0);
  for (int to = 0; to < ranks && status.is_ok(); ++to) {
    status = flush(to);
    std::unique_ptr<SpillWriter>& writer = outgoing[static_cast<size_t>(to)];
    if (status.is_ok() && writer) {
      file_bytes[static_cast<size_t>(to)] = writer->bytes_written();
      status = writer->close();
    }
  }
  status = dist::agree(comm, status);
  if (!status.is_ok()) return status;

  // 2. Rounds of one block per destination, until the longest file anywhere has gone.
  std::vector<std::unique_ptr<SpillReader>> readers(static_cast<size_t>(ranks));
  for (int to = 0; to < ranks && status.is_ok(); ++to) {
    if (file_bytes[static_cast<size_t>(to)] == 0) continue;
    auto& reader = readers[static_cast<size_t>(to)];
    reader = std::make_unique<SpillReader>();
    status = reader->open(outgoing[static_cast<size_t>(to)]->path(), file_bytes[static_cast<size_t>(to)]);
  }
  uint64_t my_rounds = 0;
  for (int to = 0; to < ranks; ++to)
    my_rounds = std::max(my_rounds, blocks[static_cast<size_t>(to)]);
  uint64_t rounds = 0;
  {
    std::string mine(reinterpret_cast<const char*>(&my_rounds), sizeof my_rounds);
    for (const std::string& theirs : comm.all_gather(mine)) {
      uint64_t value = 0;
      if (theirs.size() == sizeof value) std::memcpy(&value, theirs.data(), sizeof value);
      rounds = std::max(rounds, value);
    }
  }
  stats.rounds = rounds;
  for (uint64_t round = 0; round < rounds; ++round) {
    std::vector<std::string> send(static_cast<size_t>(ranks));
    for (int to = 0; to < ranks && status.is_ok(); ++to) {
      auto& reader = readers[static_cast<size_t>(to)];
      if (!reader) continue;
      auto more = reader->next_block(send[static_cast<size_t>(to)]);
      if (!more.is_ok()) {
        status = more.status();  // keeps taking part in the rounds; agreed on below
        send[static_cast<size_t>(to)].clear();
      } else if (!*more) {
        reader.reset();
      }
    }
    if (!status.is_ok()) send.assign(static_cast<size_t>(ranks), std::string());
    std::vector<std::string> received = comm.all_to_all(std::move(send));
    for (const std::string& block : received) {
      if (!status.is_ok() || block.empty()) continue;
      if (block.size() % sizeof(BucketRecord) != 0) {
        status = Status::error("dedup shuffle: a block of bucket records arrived cut short");
        continue;
      }
      std::vector<BucketRecord> records(block.size() / sizeof(BucketRecord));
      std::memcpy(records.data(), block.data(), block.size());
      status = owned.add(records.data(), records.size());
    }
  }
  readers.clear();
  outgoing.clear();
  std::filesystem::remove_all(scratch_dir, ec);
  return dist::agree(comm, status);
}

}  // namespace winnow
