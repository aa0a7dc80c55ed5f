#include "pipeline/shard_source.h"

#include <algorithm>

namespace winnow {

ShardSource::ShardSource(const std::vector<InputFile>& inputs, std::vector<uint32_t> shards,
                         InputOptions options, Clock& clock)
    : ShardSource(inputs, dist::ShardQueue::fixed(std::move(shards)), std::move(options), clock) {}

ShardSource::ShardSource(const std::vector<InputFile>& inputs,
                         std::unique_ptr<dist::ShardQueue> queue, InputOptions options,
                         Clock& clock)
    : inputs_(inputs),
      queue_(std::move(queue)),
      options_(std::move(options)),
      in_flight_(1, clock),
      returned_(clock) {
  for (uint32_t shard : queue_->candidates()) total_bytes_ += inputs_[shard].size;
  total_bytes_ /= static_cast<uint64_t>(queue_->ranks());
}

bool ShardSource::take_next_shard(uint32_t& shard) {
  if (queue_empty_) return false;
  std::optional<uint32_t> next = queue_->next();
  if (!next) {
    queue_empty_ = true;
    return false;
  }
  shard = *next;
  taken_.push_back(shard);
  return true;
}

std::vector<uint32_t> ShardSource::shards_read() const {
  std::lock_guard lock(mutex_);
  return taken_;
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
  // A free open file, or room to open the next one; the wait also ends when there is nothing
  // left to read (the queue is empty and no file is open).
  uint32_t shard = 0;
  bool claimed_new = false;
  const bool queue_was_empty = queue_empty_;
  auto claimable = [&] {
    if (cancelled_ || !free_.empty()) return true;
    if (!queue_empty_ && open_.size() < max_open_) {
      claimed_new = take_next_shard(shard);
      if (claimed_new) return true;
    }
    return queue_empty_ && open_.empty();
  };
  const bool claimed = returned_.wait_until(lock, deadline, claimable);
  if (!claimed || cancelled_ || (!claimed_new && free_.empty())) {
    const bool emptied = !queue_was_empty && queue_empty_;
    lock.unlock();
    in_flight_.release();
    // This call found the queue empty: waiting workers may now see the pass end.
    if (emptied) returned_.notify_all();
    return nullptr;
  }
  if (claimed_new) {
    open_[shard];  // leased; opened by its first read
  } else {
    // The oldest open file first: shards finish in order and few stay pending in the writer.
    shard = *free_.begin();
    free_.erase(free_.begin());
  }
  auto ticket = std::make_unique<DocBatch>();
  ticket->shard = shard;
  return ticket;
}

bool ShardSource::finished() const {
  std::lock_guard lock(mutex_);
  return cancelled_ || (queue_->remaining() == 0 && open_.empty());
}

size_t ShardSource::waiting() const {
  std::lock_guard lock(mutex_);
  size_t unopened = queue_empty_ ? 0 : queue_->remaining();
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
  // A closed file may end the pass (every waiter must see it); a free one serves one worker.
  if (ended) {
    returned_.notify_all();
  } else {
    returned_.notify_one();
  }
  return Status::ok();
}

StageRunner::Part ShardSource::read_part() {
  return {"read", [this](DocBatch& ticket) { return read_into(ticket); }, {}, {}};
}

}  // namespace winnow
