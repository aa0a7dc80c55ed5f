#include "pipeline/shard_plan.h"

#include <algorithm>
#include <iterator>

namespace winnow {

std::unique_ptr<dist::ShardQueue> ShardPlan::queue_for(const std::vector<uint32_t>& shards) const {
  if (read_) {
    std::vector<uint32_t> mine;
    std::set_intersection(shards.begin(), shards.end(), read_->begin(), read_->end(),
                          std::back_inserter(mine));
    return dist::ShardQueue::fixed(std::move(mine));
  }
  return dist::ShardQueue::shared(comm_, dist::largest_first(shards, sizes_), sizes_);
}

void ShardPlan::pass_read(std::vector<uint32_t> shards) {
  if (read_) return;
  std::sort(shards.begin(), shards.end());
  read_ = std::move(shards);
}

}  // namespace winnow
