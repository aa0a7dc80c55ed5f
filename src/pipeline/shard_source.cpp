#include "pipeline/shard_source.h"

#include <algorithm>

namespace winnow {

ShardSource::ShardSource(const std::vector<InputFile>& inputs, std::vector<uint32_t> shards,
                         InputOptions options, Clock& clock)
    : inputs_(inputs),
      shards_(std::move(shards)),
      options_(std::move(options)),
      in_flight_(1, clock),
      returned_(clock) {
  for (uint32_t shard : shards_) total_bytes_ += inputs_[shard].size;
}

size_t ShardSource::capacity() const {
  std::lock_guard lock(mutex_);
  return max_open_;
}

void ShardSource::set_capacity(size_t capacity) {
  {
    std::lock_guard lock(mutex_);
    max_open_ = std::max<size_t>(1, capacity);
  }
  returned_.notify_all();
}

BatchPtr ShardSource::take(std::chrono::steady_clock::time_point deadline) {
  if (finished()) return nullptr;
  // The slot first: a worker waiting for one holds no reader another could use.
  if (in_flight_.acquire_until(deadline) != InFlightLimit::kAcquired) return nullptr;
  std::unique_lock lock(mutex_);
  auto claimable = [&] {
    return cancelled_ || !free_.empty() || (next_ < shards_.size() && open_.size() < max_open_);
  };
  if (!returned_.wait_until(lock, deadline, claimable) || cancelled_) {
    lock.unlock();
    in_flight_.release();
    return nullptr;
  }
  uint32_t shard;
  if (!free_.empty()) {
    // The oldest open file first: shards finish in order and few stay pending in the writer.
    shard = *free_.begin();
    free_.erase(free_.begin());
  } else {
    shard = shards_[next_++];
    open_[shard];  // leased; opened by its first read
  }
  auto ticket = std::make_unique<DocBatch>();
  ticket->shard = shard;
  return ticket;
}

bool ShardSource::finished() const {
  std::lock_guard lock(mutex_);
  return cancelled_ || (next_ == shards_.size() && open_.empty());
}

size_t ShardSource::waiting() const {
  std::lock_guard lock(mutex_);
  size_t unopened = shards_.size() - next_;
  size_t room = max_open_ > open_.size() ? max_open_ - open_.size() : 0;
  return free_.size() + std::min(unopened, room);
}

void ShardSource::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  returned_.notify_all();
  in_flight_.cancel();
}

Status ShardSource::read_into(DocBatch& ticket) {
  const uint32_t shard = ticket.shard;
  Reader* lease;
  {
    std::lock_guard lock(mutex_);
    lease = &open_.at(shard);  // std::map: the element stays put while others come and go
  }
  if (!lease->reader) {
    lease->reader = std::make_unique<InputReader>(inputs_[shard], shard, options_);
  }
  BatchPtr batch = lease->reader->next();
  uint64_t consumed = lease->reader->compressed_bytes_read();
  compressed_bytes_ += consumed - lease->reported;
  lease->reported = consumed;
  if (!batch) {
    std::string failure = lease->reader->failure();
    if (!failure.empty()) return Status::error(failure);
    return Status::errorf("{}: read past the end of the file", inputs_[shard].path);
  }
  input_bytes_ += batch->raw_input_bytes;
  const bool ended = batch->end_of_shard;
  ticket = std::move(*batch);
  {
    std::lock_guard lock(mutex_);
    if (ended) {
      open_.erase(shard);
    } else {
      free_.insert(shard);
    }
  }
  returned_.notify_one();
  return Status::ok();
}

StageRunner::Part ShardSource::read_part() {
  return {"read", [this](DocBatch& ticket) { return read_into(ticket); }, {}, {}};
}

}  // namespace winnow
