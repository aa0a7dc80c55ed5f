#pragma once
// ShardSource: the input files of a pass, as the input of its first step. Taking a batch claims
// a file's reader (a free one already open, the next file when none is free, or a wait) and a
// slot of the in-flight limit; the step's first part, `read` (read_part), then reads the next
// batch from that reader within the CPU budget, like any other work, and gives the reader back.
// So reading and decompressing count in `threads`, the autoscaler can give reading more
// workers when it is the bottleneck, and no thread reads outside the budget.
//
// Which files: a dist::ShardQueue, a fixed list or one the ranks of a job share (the first pass
// of a run that reads the input takes from a shared one, so ranks that finish early read more);
// shards_read() says which this source opened, for the passes after it to read the same.
//
// Each file's batches are read in order by whichever worker holds its reader, so the writer,
// which restores each shard's order, always finds the batch it waits for already in flight
// (the in-flight limit cannot deadlock). The sink calls batch_done() for every batch it has
// finished with (written, or let go).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "dist/shard_queue.h"
#include "io/input_files.h"
#include "io/input_reader.h"
#include "pipeline/in_flight_limit.h"
#include "pipeline/stage_runner.h"
#include "pipeline/step_input.h"

namespace winnow {

class ShardSource final : public StepInput {
 public:
  // Reads `shards` (indices into `inputs`, in this order) with `options`.
  ShardSource(const std::vector<InputFile>& inputs, std::vector<uint32_t> shards,
              InputOptions options, Clock& clock = Clock::system());
  // Reads the shards `queue` hands this rank, as workers free up.
  ShardSource(const std::vector<InputFile>& inputs, std::unique_ptr<dist::ShardQueue> queue,
              InputOptions options, Clock& clock = Clock::system());
  // Before the pass starts: at most `slots` batches alive between reading and the sink.
  void set_in_flight(size_t slots) { in_flight_.set_slots(slots); }

  // StepInput: a ticket (an empty batch naming the claimed shard) for read_part to fill.
  BatchPtr take(std::chrono::steady_clock::time_point deadline) override;
  bool finished() const override;
  size_t waiting() const override;
  // Files open at once: the step's workers plus one, as a queue holds a batch per worker plus
  // one (the monitor sets it as the autoscaler changes the workers).
  size_t capacity() const override;
  void set_capacity(size_t capacity) override;

  // The first part of the pass's first step: reads the next batch of the ticket's shard.
  StageRunner::Part read_part();
  // A batch has left the pass (written, or let go): its in-flight slot is free again.
  void batch_done() { in_flight_.release(); }
  // Wakes and ends every wait (a failed run).
  void cancel();

  uint64_t input_bytes_read() const { return input_bytes_.load(); }
  uint64_t compressed_bytes_read() const { return compressed_bytes_.load(); }
  // This rank's expected share of the bytes: its list's, or the shared queue's over the ranks.
  uint64_t total_compressed_bytes() const { return total_bytes_; }
  // The shards this source has taken so far (all of them once the pass is over), in order.
  std::vector<uint32_t> shards_read() const;

 private:
  struct Reader {
    std::unique_ptr<InputReader> reader;  // opened by the first read
    uint64_t reported = 0;                // compressed bytes counted so far
  };
  Status read_into(DocBatch& ticket);

  // Takes the next shard from the queue (under mutex_); false when there is none left.
  bool take_next_shard(uint32_t& shard);

  const std::vector<InputFile>& inputs_;
  std::unique_ptr<dist::ShardQueue> queue_;
  InputOptions options_;
  size_t max_open_ = 2;
  uint64_t total_bytes_ = 0;
  InFlightLimit in_flight_;

  mutable std::mutex mutex_;
  ClockCondition returned_;
  bool queue_empty_ = false;           // the queue has said it has no more for this rank
  std::vector<uint32_t> taken_;        // every shard taken from the queue, in order
  std::map<uint32_t, Reader> open_;    // by shard: every open reader, leased or free
  std::set<uint32_t> free_;            // shards whose reader nobody holds (oldest first)
  bool cancelled_ = false;

  std::atomic<uint64_t> input_bytes_{0};
  std::atomic<uint64_t> compressed_bytes_{0};
};

}  // namespace winnow
