#include "pipeline/stage_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/reason_table.h"
#include "core/row_builder.h"
#include "core/worker_wait.h"
#include "pipeline/resources.h"
#include "pipeline/simulated_clock.h"

namespace winnow {
namespace {

using namespace std::chrono_literals;

constexpr auto kPatience = 10s;  // only a bug makes a wait this long

BatchPtr make_batch(uint64_t sequence, size_t docs, bool end_of_shard = false) {
  auto batch = std::make_unique<DocBatch>();
  batch->shard = 0;
  batch->sequence = sequence;
  batch->end_of_shard = end_of_shard;
  for (size_t i = 0; i < docs; ++i) {
    batch->add_document(DocKey::make(0, sequence * 100 + i), "", true, "text", {}, i + 1);
  }
  return batch;
}

// Records which batches the work function saw, and how often.
class Tally {
 public:
  void saw(uint64_t sequence) {
    std::lock_guard lock(mutex_);
    ++counts_[sequence];
  }
  std::map<uint64_t, int> counts() const {
    std::lock_guard lock(mutex_);
    return counts_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<uint64_t, int> counts_;
};

// Drains `out` on its own thread until it ends; fails (instead of hanging) if it never does.
class Drain {
 public:
  explicit Drain(BatchQueue& out, Clock& clock = Clock::system()) : out_(out) {
    thread_ = ClockThread(clock, [this, &clock] {
      auto deadline = clock.now() + 3 * kPatience;
      while (clock.now() < deadline) {
        auto item = out_.pop_until(clock.now() + 100ms);
        if (item) {
          batches_.push_back(std::move(*item));
        } else if (out_.finished()) {
          closed_ = true;
          return;
        }
      }
    });
  }
  ~Drain() {
    if (thread_.joinable()) thread_.join();
  }
  // Waits for the output to end; true when it was closed.
  bool wait() {
    thread_.join();
    return closed_;
  }
  const std::vector<BatchPtr>& batches() const { return batches_; }

 private:
  BatchQueue& out_;
  ClockThread thread_;
  std::vector<BatchPtr> batches_;
  bool closed_ = false;
};

// Waits until `condition` holds; false on time-out.
template <typename Condition>
bool eventually(Condition condition, Clock& clock = Clock::system()) {
  auto deadline = clock.now() + kPatience;
  while (!condition()) {
    if (clock.now() > deadline) return false;
    clock.sleep_for(1ms);
  }
  return true;
}

// The tests of what depends on time run on a simulated clock (pipeline/simulated_clock.h):
// a sleep lasts exactly its time whatever the machine's load, so they check exact values. The
// test's own thread takes part in the clock while the fixture lives.
class SimulatedTime : public ::testing::Test {
 protected:
  SimulatedClock clock_;
  SimulatedClock::Participant me_{clock_};
};

void expect_each_once(const std::map<uint64_t, int>& counts, uint64_t n) {
  EXPECT_EQ(counts.size(), n);
  for (uint64_t s = 0; s < n; ++s) {
    auto it = counts.find(s);
    if (it == counts.end()) {
      ADD_FAILURE() << "batch " << s << " never processed";
    } else {
      EXPECT_EQ(it->second, 1) << "batch " << s << " processed " << it->second << " times";
    }
  }
}

void expect_output_once(const std::vector<BatchPtr>& batches, uint64_t n) {
  std::map<uint64_t, int> seen;
  for (const auto& b : batches) ++seen[b->sequence];
  expect_each_once(seen, n);
}

TEST(StageRunner, WorkersProcessEveryBatchOnceAndCloseTheOutput) {
  constexpr uint64_t kBatches = 300;
  BatchQueue in(4), out(4);
  Tally tally;
  std::atomic<int> failures{0};
  StageRunner runner(
      "step",
      [&](DocBatch& batch) {
        tally.saw(batch.sequence);
        batch.drop(0, 1);  // one of three documents leaves
        return Status::ok();
      },
      in, out, [&](const Status&) { ++failures; });
  EXPECT_EQ(runner.name(), "step");
  runner.start(4);
  EXPECT_EQ(runner.target_workers(), 4);
  EXPECT_EQ(runner.live_workers(), 4);
  Drain drain(out);
  for (uint64_t s = 0; s < kBatches; ++s) ASSERT_TRUE(in.push(make_batch(s, 3)));
  in.close();

  ASSERT_TRUE(drain.wait()) << "the output was never closed";
  runner.join();
  EXPECT_EQ(runner.live_workers(), 0);
  EXPECT_EQ(failures.load(), 0);
  expect_each_once(tally.counts(), kBatches);
  expect_output_once(drain.batches(), kBatches);
  for (const auto& b : drain.batches()) {
    EXPECT_FALSE(b->kept(0));
    EXPECT_TRUE(b->kept(1));
  }
  EXPECT_EQ(runner.metrics().batches.load(), kBatches);
  EXPECT_EQ(runner.metrics().docs_in.load(), 3 * kBatches);
  EXPECT_EQ(runner.metrics().docs_out.load(), 2 * kBatches);
}

TEST(StageRunner, ClosesTheOutputOnlyAfterTheLastBatch) {
  BatchQueue in(2), out(16);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  StageRunner runner(
      "slow",
      [&](DocBatch& batch) {
        if (batch.sequence == 1) released.wait();
        return Status::ok();
      },
      in, out, [](const Status&) {});
  runner.start(2);
  ASSERT_TRUE(in.push(make_batch(0, 1)));
  ASSERT_TRUE(in.push(make_batch(1, 1)));
  in.close();
  // One worker is held inside batch 1; the other has left. The output must stay open.
  ASSERT_TRUE(eventually([&] { return out.size() == 1 && runner.live_workers() == 1; }));
  EXPECT_FALSE(out.finished());
  release.set_value();
  ASSERT_TRUE(eventually([&] { return out.finished() || out.size() == 2; }));
  EXPECT_EQ(out.pop()->get()->sequence, 0u);
  EXPECT_EQ(out.pop()->get()->sequence, 1u);
  EXPECT_EQ(out.pop_until(std::chrono::steady_clock::now() + kPatience), std::nullopt);
  EXPECT_TRUE(out.finished());
  runner.join();
}

TEST(StageRunner, AnEmptyInputStillClosesTheOutput) {
  BatchQueue in(2), out(2);
  StageRunner runner(
      "idle", [](DocBatch&) { return Status::ok(); }, in, out, [](const Status&) {});
  runner.start(3);
  in.close();
  EXPECT_EQ(out.pop_until(std::chrono::steady_clock::now() + kPatience), std::nullopt);
  EXPECT_TRUE(out.finished());
  runner.join();
  EXPECT_EQ(runner.live_workers(), 0);
}

TEST(StageRunner, SetWorkersGrowsAndShrinksWhileRunning) {
  constexpr uint64_t kPerPhase = 60;
  BatchQueue in(4), out(4);
  Tally tally;
  StageRunner runner(
      "scaled",
      [&](DocBatch& batch) {
        tally.saw(batch.sequence);
        std::this_thread::sleep_for(100us);  // some work, so workers overlap
        return Status::ok();
      },
      in, out, [](const Status& s) { ADD_FAILURE() << s.message(); });
  Drain drain(out);
  uint64_t next = 0;
  auto feed = [&] {
    for (uint64_t i = 0; i < kPerPhase; ++i) ASSERT_TRUE(in.push(make_batch(next++, 2)));
  };

  runner.start(1);
  feed();
  for (int target : {4, 2, 1, 3, 1, 5}) {
    runner.set_workers(target);
    EXPECT_EQ(runner.target_workers(), target);
    ASSERT_TRUE(eventually([&] { return runner.live_workers() == target; }))
        << "live workers stuck at " << runner.live_workers() << ", target " << target;
    feed();
    // Stays converged: a shrink must not overshoot and a grow must not undershoot.
    EXPECT_EQ(runner.live_workers(), target);
  }
  runner.set_workers(0);  // clamped to one
  EXPECT_EQ(runner.target_workers(), 1);
  ASSERT_TRUE(eventually([&] { return runner.live_workers() == 1; }));
  feed();
  in.close();

  ASSERT_TRUE(drain.wait()) << "the output was never closed";
  runner.join();
  EXPECT_EQ(runner.live_workers(), 0);
  expect_each_once(tally.counts(), next);
  expect_output_once(drain.batches(), next);
  EXPECT_EQ(runner.metrics().batches.load(), next);
}

TEST(StageRunner, AFailingBatchReportsItsStatus) {
  BatchQueue in(16), out(16);
  std::mutex mutex;
  std::vector<std::string> failures;
  std::promise<void> failed;
  StageRunner runner(
      "fails",
      [&](DocBatch& batch) {
        if (batch.sequence == 5) return Status::error("boom at 5");
        return Status::ok();
      },
      in, out,
      [&](const Status& status) {
        std::lock_guard lock(mutex);
        failures.push_back(status.is_ok() ? "(ok status)" : status.message());
        failed.set_value();
      });
  runner.start(1);
  for (uint64_t s = 0; s < 10; ++s) ASSERT_TRUE(in.push(make_batch(s, 1)));
  auto reported = failed.get_future();
  ASSERT_EQ(reported.wait_for(kPatience), std::future_status::ready);
  // The worker stops at the failure: what came before went out, the failed batch did not.
  ASSERT_TRUE(eventually([&] { return runner.live_workers() == 0; }));
  in.cancel();  // what the executor does on failure
  runner.join();
  {
    std::lock_guard lock(mutex);
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0], "boom at 5");
  }
  ASSERT_EQ(out.size(), 5u);
  for (uint64_t s = 0; s < 5; ++s) EXPECT_EQ(out.pop()->get()->sequence, s);
}

TEST(StageRunner, EndOfShardBatchesPassThroughWithoutWork) {
  BatchQueue in(16), out(16);
  Tally tally;
  StageRunner runner(
      "marker",
      [&](DocBatch& batch) {
        tally.saw(batch.sequence);
        return Status::ok();
      },
      in, out, [](const Status& s) { ADD_FAILURE() << s.message(); });
  runner.start(1);
  ASSERT_TRUE(in.push(make_batch(0, 4)));
  ASSERT_TRUE(in.push(make_batch(1, 2)));
  ASSERT_TRUE(in.push(make_batch(2, 0, /*end_of_shard=*/true)));
  in.close();
  std::vector<BatchPtr> got;
  while (auto item = out.pop_until(std::chrono::steady_clock::now() + kPatience)) {
    got.push_back(std::move(*item));
  }
  ASSERT_TRUE(out.finished());
  runner.join();

  ASSERT_EQ(got.size(), 3u);  // one worker: order is kept
  EXPECT_EQ(got[2]->sequence, 2u);
  EXPECT_TRUE(got[2]->end_of_shard);
  auto counts = tally.counts();
  EXPECT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts.count(2), 0u) << "work ran on an end_of_shard batch";
  EXPECT_EQ(runner.metrics().batches.load(), 2u);
  EXPECT_EQ(runner.metrics().docs_in.load(), 6u);
  EXPECT_EQ(runner.metrics().docs_out.load(), 6u);
}

TEST(StageRunner, MetricsCountKeptDocumentsInAndOut) {
  BatchQueue in(16), out(16);
  StageRunner runner(
      "half",
      [&](DocBatch& batch) {
        for (size_t i = 0; i < batch.size(); i += 2) {
          if (batch.kept(i)) batch.drop(i, 2);
        }
        return Status::ok();
      },
      in, out, [](const Status& s) { ADD_FAILURE() << s.message(); });
  auto first = make_batch(0, 10);
  first->drop(1, 1);  // already dropped upstream: not counted in
  ASSERT_TRUE(in.push(std::move(first)));
  ASSERT_TRUE(in.push(make_batch(1, 5)));
  in.close();
  runner.start(2);
  while (out.pop_until(std::chrono::steady_clock::now() + kPatience)) {
  }
  ASSERT_TRUE(out.finished());
  runner.join();
  EXPECT_EQ(runner.metrics().batches.load(), 2u);
  EXPECT_EQ(runner.metrics().docs_in.load(), 9u + 5u);
  EXPECT_EQ(runner.metrics().docs_out.load(), 4u + 2u);
}

// A step after a fan-out is measured in the same unit as the steps before it: source records
// per batch, not the rows the fan-out made (the anchor divides each stage's rate by the
// product of the upstream fan-outs; counting the source rows in each batch is the same).
TEST(StageRunner, ThroughputIsCountedInSourceRecordsWhateverTheFanOut) {
  BatchQueue in(16), mid(16), out(16);
  ReasonTable reasons;
  ReasonId split = reasons.add("split", 0, "split", RowOutcome::kFannedOut);
  auto fail = [](const Status& s) { ADD_FAILURE() << s.message(); };
  StageRunner fan_out(
      "fan_out",
      [&](DocBatch& batch) {
        RowBuilder rows(batch);
        for (size_t i = 0; i < batch.size(); ++i) {
          rows.carry_as(i, split);
          for (uint32_t k = 0; k < 10; ++k) rows.add_child(i, k, split, batch.text(i));
        }
        rows.finish();
        return Status::ok();
      },
      in, mid, fail);
  StageRunner after("after", [](DocBatch&) { return Status::ok(); }, mid, out, fail);
  for (uint64_t b = 0; b < 3; ++b) {
    auto batch = make_batch(b, 4);
    batch->errors.push_back({InputError::kMalformedJson, 1, 0, "bad", ""});
    ASSERT_TRUE(in.push(std::move(batch)));
  }
  in.close();
  fan_out.start(1);
  after.start(1);
  while (out.pop_until(std::chrono::steady_clock::now() + kPatience)) {
  }
  ASSERT_TRUE(out.finished());
  fan_out.join();
  after.join();
  EXPECT_EQ(fan_out.metrics().source_docs.load(), 15u);  // 3 batches x (4 rows + 1 error)
  EXPECT_EQ(after.metrics().source_docs.load(), 15u);    // not 3 x (44 rows + 1 error)
  EXPECT_EQ(after.metrics().docs_in.load(), 120u);       // but it did get the 120 children
  EXPECT_DOUBLE_EQ(after.snapshot().docs_per_batch, 5.0);
}

TEST(StageRunner, CancelledOutputStopsTheWorkers) {
  BatchQueue in(16), out(1);
  StageRunner runner(
      "stuck", [](DocBatch&) { return Status::ok(); }, in, out, [](const Status&) {});
  runner.start(2);
  for (uint64_t s = 0; s < 5; ++s) ASSERT_TRUE(in.push(make_batch(s, 1)));
  // out holds one batch; the workers block pushing the next ones until the run is cancelled.
  ASSERT_TRUE(eventually([&] { return out.size() == 1; }));
  out.cancel();
  in.cancel();
  ASSERT_TRUE(eventually([&] { return runner.live_workers() == 0; }));
  runner.join();
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST(StageRunner, AThrowingStageFailsTheRunInsteadOfCrashing) {
  BatchQueue in(4), out(4);
  std::promise<std::string> reported;
  StageRunner runner(
      "throws", [](DocBatch&) -> Status { throw std::runtime_error("bad state"); }, in, out,
      [&](const Status& status) { reported.set_value(status.message()); });
  runner.start(1);
  ASSERT_TRUE(in.push(make_batch(3, 1)));
  auto message = reported.get_future();
  ASSERT_EQ(message.wait_for(kPatience), std::future_status::ready);
  EXPECT_EQ(message.get(), "step 'throws' failed on shard 0 batch 3: bad state");
  in.cancel();
  runner.join();
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

TEST_F(SimulatedTime, WorkersInSetupAreStartingAndSetupTimeIsMeasuredApart) {
  BatchQueue in(8, clock_), out(8, clock_);
  StageRunner runner(
      "model", [](DocBatch&) { return Status::ok(); }, in, out,
      [](const Status& s) { ADD_FAILURE() << s.message(); });
  runner.set_clock(clock_);
  runner.set_setup([this] {
    clock_.sleep_for(20ms);
    return Status::ok();
  });
  runner.start(2);
  clock_.sleep_for(10ms);  // halfway through both setups
  StepSnapshot during = runner.snapshot();
  EXPECT_EQ(during.starting, 2);
  EXPECT_EQ(during.ready, 0);
  EXPECT_EQ(during.protected_workers, 2);
  clock_.sleep_for(20ms);
  EXPECT_EQ(runner.snapshot().ready, 2);
  Drain drain(out, clock_);
  for (uint64_t s = 0; s < 6; ++s) ASSERT_TRUE(in.push(make_batch(s, 10)));
  in.close();
  ASSERT_TRUE(drain.wait());
  runner.join();
  EXPECT_EQ(runner.metrics().setups.load(), 2u);
  EXPECT_EQ(runner.metrics().setup_ns.load(), 2 * 20'000'000u);
  EXPECT_EQ(runner.metrics().busy_ns.load(), 0u);  // the batches took no (simulated) time
}

TEST_F(SimulatedTime, AWorkerWithinTheGracePeriodIsNotTakenAway) {
  BatchQueue in(8, clock_), out(8, clock_);
  StageRunner runner(
      "graced", [](DocBatch&) { return Status::ok(); }, in, out,
      [](const Status& s) { ADD_FAILURE() << s.message(); });
  runner.set_clock(clock_);
  constexpr auto kGrace = 500ms;
  runner.set_grace(kGrace);
  const auto started = clock_.now();
  runner.start(3);
  clock_.sleep_for(1ms);  // time moves once every worker waits for a batch: all ready
  EXPECT_EQ(runner.snapshot().ready, 3);
  runner.set_workers(1);
  clock_.sleep_for(kGrace - 2ms);
  EXPECT_EQ(runner.live_workers(), 3);
  EXPECT_EQ(runner.snapshot().protected_workers, 3);
  // Past the grace period they may leave; idle workers look every 100 ms.
  ASSERT_TRUE(eventually([&] { return runner.live_workers() == 1; }, clock_));
  EXPECT_GE(clock_.now() - started, kGrace);
  EXPECT_LE(clock_.now() - started, kGrace + 101ms);
  EXPECT_EQ(runner.snapshot().protected_workers, 0);
  in.close();
  runner.join();
}

TEST_F(SimulatedTime, TheServiceWindowKeepsTheLastBatchesOnly) {
  BatchQueue in(64, clock_), out(64, clock_);
  std::atomic<int> calls{0};
  StageRunner runner(
      "windowed",
      [&](DocBatch&) {
        // The first ten batches are slow, the rest take no time: the window must forget the
        // slow ones.
        if (calls++ < 10) clock_.sleep_for(20ms);
        return Status::ok();
      },
      in, out, [](const Status& s) { ADD_FAILURE() << s.message(); });
  runner.set_clock(clock_);
  runner.set_window(8);
  runner.start(1);
  Drain drain(out, clock_);
  for (uint64_t s = 0; s < 30; ++s) ASSERT_TRUE(in.push(make_batch(s, s < 10 ? 10 : 4)));
  in.close();
  ASSERT_TRUE(drain.wait());
  runner.join();
  StepSnapshot snap = runner.snapshot();
  EXPECT_EQ(snap.samples, 8u);
  EXPECT_DOUBLE_EQ(snap.docs_per_batch, 4.0);  // the last eight batches only
  EXPECT_EQ(snap.mean_service_s, 0.0);         // none of the slow ones
  EXPECT_EQ(runner.metrics().busy_ns.load(), 10 * 20'000'000u);
  EXPECT_EQ(runner.metrics().source_docs.load(), 10u * 10 + 20 * 4);
}

TEST_F(SimulatedTime, TheServiceWindowForgetsOldBatchesButKeepsTheLastFive) {
  BatchQueue in(64, clock_), out(64, clock_);
  StageRunner runner(
      "aged", [](DocBatch&) { return Status::ok(); }, in, out,
      [](const Status& s) { ADD_FAILURE() << s.message(); });
  runner.set_clock(clock_);
  runner.set_window(64, 50ms);
  runner.start(1);
  Drain drain(out, clock_);
  for (uint64_t s = 0; s < 20; ++s) ASSERT_TRUE(in.push(make_batch(s, 1)));
  ASSERT_TRUE(eventually([&] { return runner.metrics().batches.load() == 20; }, clock_));
  clock_.sleep_for(80ms);  // all twenty are now older than the window
  for (uint64_t s = 20; s < 22; ++s) ASSERT_TRUE(in.push(make_batch(s, 1)));
  in.close();
  ASSERT_TRUE(drain.wait());
  runner.join();
  EXPECT_EQ(runner.snapshot().samples, StageRunner::kMinWindow);
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

// What the run monitor relies on: busy times read by snapshot() (batches in progress included)
// only grow, a fused member's never by more than its group's, and none exceeds the wall time
// its workers had. Snapshots race with workers starting and ending batches and parts: two
// threads take them as fast as they can while four workers run a three-part step.
TEST(StageRunner, SnapshotBusyTimesOnlyGrowAndAMemberNeverOutrunsItsGroup) {
  constexpr int kWorkers = 4;
  BatchQueue in(64), out(64);
  std::vector<StageRunner::Part> parts;
  for (const char* name : {"a", "b", "c"}) {
    parts.push_back({name, [](DocBatch&) { return Status::ok(); }, {}});
  }
  StageRunner runner("group", std::move(parts), in, out,
                     [](const Status& s) { ADD_FAILURE() << s.message(); });
  auto begin = std::chrono::steady_clock::now();
  runner.start(kWorkers);
  Drain drain(out);
  std::atomic<bool> feeding{true};
  std::thread feeder([&] {
    for (uint64_t s = 0; s < 5000; ++s) {
      if (!in.push(make_batch(s, 1))) break;
    }
    feeding = false;
    in.close();
  });
  std::mutex mutex;
  std::vector<std::string> violations;
  auto watch = [&] {
    StepSnapshot last = runner.snapshot();
    int checked = 0;
    while (feeding.load() || checked < 1000) {
      StepSnapshot now = runner.snapshot();
      auto wall = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                               begin)
              .count());
      std::string problem;
      if (now.busy_ns < last.busy_ns) problem = "group busy time went down";
      if (now.busy_ns > kWorkers * wall) problem = "group busy time beyond the wall time";
      if (now.part_busy_ns.size() != 3) problem = "not three parts";
      uint64_t parts_now = 0;
      for (size_t k = 0; problem.empty() && k < 3; ++k) {
        parts_now += now.part_busy_ns[k];
        if (now.part_busy_ns[k] < last.part_busy_ns[k]) {
          problem = "part " + std::to_string(k) + " busy time went down";
        } else if (now.part_busy_ns[k] - last.part_busy_ns[k] > now.busy_ns - last.busy_ns) {
          problem = "part " + std::to_string(k) + " grew more than its group";
        }
      }
      if (problem.empty() && parts_now > now.busy_ns) problem = "parts' sum beyond the group";
      if (!problem.empty()) {
        std::lock_guard lock(mutex);
        violations.push_back(problem + ": group " + std::to_string(last.busy_ns) + " -> " +
                             std::to_string(now.busy_ns));
        if (violations.size() > 20) return;
      }
      last = now;
      ++checked;
    }
  };
  std::thread watcher_a(watch), watcher_b(watch);
  feeder.join();
  watcher_a.join();
  watcher_b.join();
  ASSERT_TRUE(drain.wait());
  runner.join();
  EXPECT_TRUE(violations.empty()) << violations.size() << " violations, first: "
                                  << (violations.empty() ? "" : violations.front());
  EXPECT_EQ(runner.metrics().batches.load(), 5000u);
}

}  // namespace
}  // namespace winnow

namespace winnow {
namespace {

// A worker that waits (for a network reply) lends its CPU share: with a budget of one thread,
// another step's batches run during the wait instead of after it. Exact on the simulated
// clock: 5 waits of 100 ms and 5 batches of 10 ms of CPU end at 500 ms, not 550 (all held in
// turn).
TEST_F(SimulatedTime, AWaitingWorkerLendsItsCpuShareToOtherSteps) {
  ResourcePool pool({1, 0}, clock_);
  auto run_both = [&](bool lend) {
    BatchQueue waiting_in(8, clock_), waiting_out(8, clock_), cpu_in(8, clock_),
        cpu_out(8, clock_);
    auto fail = [](const Status& s) { ADD_FAILURE() << s.message(); };
    StageRunner waiting(
        "caption",
        [&](DocBatch&) {
          if (!lend) {
            clock_.sleep_for(100ms);
            return Status::ok();
          }
          WorkerWait reply;
          clock_.sleep_for(100ms);
          return Status::ok();
        },
        waiting_in, waiting_out, fail);
    StageRunner cpu(
        "filter",
        [&](DocBatch&) {
          clock_.sleep_for(10ms);
          return Status::ok();
        },
        cpu_in, cpu_out, fail);
    for (StageRunner* r : {&waiting, &cpu}) {
      r->set_clock(clock_);
      r->set_resources(&pool, StageResources{1, 0, false});
    }
    const auto begin = clock_.now();
    waiting.start(1);
    cpu.start(1);
    Drain drain_waiting(waiting_out, clock_), drain_cpu(cpu_out, clock_);
    // The waiting step takes the one CPU share first; the other step's batches come 1 ms
    // later, while it waits (or holds the share, when it does not lend it).
    for (uint64_t s = 0; s < 5; ++s) EXPECT_TRUE(waiting_in.push(make_batch(s, 1)));
    clock_.sleep_for(1ms);
    for (uint64_t s = 0; s < 5; ++s) EXPECT_TRUE(cpu_in.push(make_batch(s, 1)));
    waiting_in.close();
    cpu_in.close();
    EXPECT_TRUE(drain_waiting.wait());
    EXPECT_TRUE(drain_cpu.wait());
    waiting.join();
    cpu.join();
    return clock_.now() - begin;
  };
  EXPECT_EQ(run_both(false), std::chrono::steady_clock::duration(550ms));
  EXPECT_EQ(run_both(true), std::chrono::steady_clock::duration(500ms));
}

}  // namespace
}  // namespace winnow
