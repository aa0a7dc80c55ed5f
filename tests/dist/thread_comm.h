#pragma once
// ThreadComms: N ranks of one job as N threads of the test process (dist/comm.h), so the
// collective code (shuffles, gathers, agreement) runs in unit tests without MPI. Each rank's
// Comm is used by one thread; collectives meet at a generation-counted barrier.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dist/comm.h"

namespace winnow::testing {

class ThreadComms {
 public:
  explicit ThreadComms(int ranks) : ranks_(ranks), slots_(static_cast<size_t>(ranks)) {
    for (int r = 0; r < ranks; ++r) comms_.push_back(std::make_unique<Rank>(*this, r));
  }
  dist::Comm& rank(int r) { return *comms_.at(static_cast<size_t>(r)); }
  int size() const { return ranks_; }

  // Runs body(comm) on every rank, one thread each, and waits for them all.
  void run(const std::function<void(dist::Comm&)>& body) {
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks_; ++r) threads.emplace_back([&, r] { body(rank(r)); });
    for (std::thread& t : threads) t.join();
  }

 private:
  class Rank final : public dist::Comm {
   public:
    Rank(ThreadComms& shared, int rank) : shared_(shared), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return shared_.ranks_; }
    std::string describe() const override { return "thread rank " + std::to_string(rank_); }
    void barrier() override {
      std::unique_lock lock(shared_.mutex_);
      shared_.sync(lock);
    }
    std::vector<std::string> all_gather(std::string_view mine) override {
      return all_to_all(std::vector<std::string>(static_cast<size_t>(size()), std::string(mine)));
    }
    std::vector<std::string> all_to_all(std::vector<std::string> outgoing) override {
      std::unique_lock lock(shared_.mutex_);
      outgoing.resize(static_cast<size_t>(size()));
      shared_.slots_[static_cast<size_t>(rank_)] = std::move(outgoing);
      shared_.sync(lock);
      std::vector<std::string> in;
      for (const auto& from : shared_.slots_) in.push_back(from[static_cast<size_t>(rank_)]);
      shared_.sync(lock);  // nobody refills the slots before every rank has read them
      return in;
    }
    std::unique_ptr<dist::SharedCounter> make_shared_counter() override {
      std::unique_lock lock(shared_.mutex_);
      if (!shared_.counter_) shared_.counter_ = std::make_shared<std::atomic<uint64_t>>(0);
      auto counter = std::make_unique<dist::AtomicCounter>(shared_.counter_);
      shared_.sync(lock);  // every rank holds the one counter
      if (rank_ == 0) shared_.counter_.reset();
      shared_.sync(lock);  // ... before the next call makes another
      return counter;
    }

   private:
    ThreadComms& shared_;
    int rank_;
  };

  void sync(std::unique_lock<std::mutex>& lock) {
    const uint64_t generation = generation_;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation_ != generation; });
    }
  }

  int ranks_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int arrived_ = 0;
  uint64_t generation_ = 0;
  std::vector<std::vector<std::string>> slots_;  // [from][to]
  std::shared_ptr<std::atomic<uint64_t>> counter_;  // the one being made (make_shared_counter)
  std::vector<std::unique_ptr<Rank>> comms_;
};

}  // namespace winnow::testing
