#include "io/shard_batches.h"

namespace winnow {

std::unique_ptr<DocBatch> ShardBatches::next(bool input_ended) {
  if (end_emitted_) return nullptr;
  auto batch = std::make_unique<DocBatch>();
  batch->shard = shard_;
  batch->sequence = sequence_++;
  if (input_ended) return end_here(std::move(batch));
  return batch;
}

std::unique_ptr<DocBatch> ShardBatches::end_here(std::unique_ptr<DocBatch> batch) {
  batch->end_of_shard = true;
  end_emitted_ = true;
  return batch;
}

}  // namespace winnow
