#pragma once
// ShardBatches: the batch protocol every shard reader follows, in one place. A shard's batches
// are numbered from 0 in reading order; after the input ends comes one batch with no documents
// marked end_of_shard (the writer learns from it how many batches the shard had), and after
// that the reader returns null.
//
//   std::unique_ptr<DocBatch> next() {
//     auto batch = batches_.next(finished_);
//     if (!batch || batch->end_of_shard) return batch;
//     ... fill batch, set finished_ when the input ends ...
//   }
//
// A reader that learns of the end only while filling (the last read returned nothing) turns
// that empty batch into the marker with end_here, so stages are not handed an empty batch.
#include <cstdint>
#include <memory>

#include "core/doc_batch.h"

namespace winnow {

class ShardBatches {
 public:
  explicit ShardBatches(uint32_t shard) : shard_(shard) {}

  // Null once the end marker went out; the end marker when input_ended; otherwise the next
  // numbered batch, empty, to fill.
  std::unique_ptr<DocBatch> next(bool input_ended);

  // Makes batch (the last one handed out, still empty) the end marker.
  std::unique_ptr<DocBatch> end_here(std::unique_ptr<DocBatch> batch);

 private:
  uint32_t shard_;
  uint64_t sequence_ = 0;
  bool end_emitted_ = false;
};

}  // namespace winnow
