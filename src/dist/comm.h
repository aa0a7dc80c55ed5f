#pragma once
// dist::Comm: how the processes of one run talk to each other. A run started by `mpirun` or
// `srun` has one process per rank, each reading its own share of the input shards
// (dist/shard_assignment.h); the global steps (dedup) exchange what must meet across ranks
// through the collectives below. A run in one process uses LocalComm, for which every
// collective is the identity: the same code path, no MPI needed at run time.
//
// Collectives are called by every rank, in the same order. A rank whose local work failed
// still calls them: `agree` first makes every rank see the first failure (named with its rank),
// so all ranks stop together instead of one waiting forever on the others.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow::dist {

// A counter every rank adds to without the others taking part: what hands out work as ranks
// free up (dist/shard_queue.h). Safe to call from any thread of a rank.
class SharedCounter {
 public:
  virtual ~SharedCounter() = default;
  // Adds one and returns the value before: each value goes to exactly one caller of the job.
  virtual uint64_t fetch_increment() = 0;
};

class Comm {
 public:
  virtual ~Comm() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  // "one process", "MPI rank 2 of 4 (host)": for logs and stats.json.
  virtual std::string describe() const = 0;

  virtual void barrier() = 0;
  // Every rank's `mine`, in rank order, on every rank. Any size (large ones go in chunks).
  virtual std::vector<std::string> all_gather(std::string_view mine) = 0;
  // outgoing[d] goes to rank d; returns what each rank sent to this one, in rank order.
  // outgoing.size() == size(). Any sizes (large ones go in chunks).
  virtual std::vector<std::string> all_to_all(std::vector<std::string> outgoing) = 0;
  // Collective: each rank's handle to one new counter at 0. Handles are destroyed
  // collectively too, in the same order on every rank. nullptr when this Comm cannot give one
  // (an MPI without thread support): the caller then divides the work statically.
  virtual std::unique_ptr<SharedCounter> make_shared_counter() = 0;
};

// A counter only this process adds to (one process; the ranks-as-threads of the tests).
class AtomicCounter final : public SharedCounter {
 public:
  explicit AtomicCounter(std::shared_ptr<std::atomic<uint64_t>> value = nullptr)
      : value_(value ? std::move(value) : std::make_shared<std::atomic<uint64_t>>(0)) {}
  uint64_t fetch_increment() override { return value_->fetch_add(1); }

 private:
  std::shared_ptr<std::atomic<uint64_t>> value_;
};

// The one-process Comm.
class LocalComm final : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string describe() const override { return "one process"; }
  void barrier() override {}
  std::vector<std::string> all_gather(std::string_view mine) override {
    return {std::string(mine)};
  }
  std::vector<std::string> all_to_all(std::vector<std::string> outgoing) override {
    return outgoing;
  }
  std::unique_ptr<SharedCounter> make_shared_counter() override {
    return std::make_unique<AtomicCounter>();
  }
};

// The process-wide one-process Comm, for callers given none.
Comm& local_comm();

// Every rank's status; the result is the failure of the lowest failing rank, its message
// prefixed with "rank N: " when the job has several ranks, or ok when every rank is ok.
Status agree(Comm& comm, const Status& mine);

// Sums of `values` (the same length on every rank) over the ranks.
std::vector<uint64_t> sum_over_ranks(Comm& comm, const std::vector<uint64_t>& values);

// What rank 0 passed, on every rank (other ranks' `value` is ignored).
std::string from_rank0(Comm& comm, std::string_view value);

}  // namespace winnow::dist
