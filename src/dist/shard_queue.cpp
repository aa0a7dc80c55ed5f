#include "dist/shard_queue.h"

#include <algorithm>
#include <utility>

#include "dist/shard_assignment.h"

namespace winnow::dist {

std::unique_ptr<ShardQueue> ShardQueue::fixed(std::vector<uint32_t> shards) {
  return std::unique_ptr<ShardQueue>(new ShardQueue(std::move(shards), nullptr, 1));
}

std::unique_ptr<ShardQueue> ShardQueue::shared(Comm& comm, std::vector<uint32_t> order,
                                               const std::vector<uint64_t>& sizes) {
  if (comm.size() > 1) {
    if (auto counter = comm.make_shared_counter()) {
      return std::unique_ptr<ShardQueue>(
          new ShardQueue(std::move(order), std::move(counter), comm.size()));
    }
  }
  // One rank (the queue is its own), or no counter: the static share of these shards.
  std::vector<uint64_t> candidate_sizes;
  for (uint32_t shard : order) candidate_sizes.push_back(sizes.at(shard));
  // In shard order: one process reads its files as they are listed (the first error a run
  // stops at is the first file's, as a user reading the list expects).
  std::vector<uint32_t> mine;
  for (uint32_t i : shards_of_rank(candidate_sizes, comm.size(), comm.rank())) {
    mine.push_back(order[i]);
  }
  std::sort(mine.begin(), mine.end());
  return fixed(std::move(mine));
}

std::optional<uint32_t> ShardQueue::next() {
  if (exhausted_.load()) return std::nullopt;
  const uint64_t position = counter_ ? counter_->fetch_increment() : next_.fetch_add(1);
  if (position >= order_.size()) {
    exhausted_.store(true);
    return std::nullopt;
  }
  return order_[position];
}

size_t ShardQueue::remaining() const {
  if (exhausted_.load()) return 0;
  if (counter_) return order_.size();  // unknown here: the others take from it too
  const uint64_t position = next_.load();
  return position >= order_.size() ? 0 : order_.size() - position;
}

std::vector<uint32_t> largest_first(std::vector<uint32_t> candidates,
                                    const std::vector<uint64_t>& sizes) {
  std::sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
    return sizes.at(a) != sizes.at(b) ? sizes.at(a) > sizes.at(b) : a < b;
  });
  return candidates;
}

}  // namespace winnow::dist
