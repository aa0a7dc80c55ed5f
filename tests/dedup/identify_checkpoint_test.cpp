// Resuming a dedup step's identify from its checkpoint (dedup/identify_checkpoint.h): a job on
// 2 ranks stops after the read pass (as a killed job would, there or later), and its rerun on
// 3 ranks, or on 1, resumes without observing a document and writes the table a whole run
// writes, byte for byte; every rank then knows every removal. A checkpoint of another
// fingerprint is not used; a damaged one is an error naming the file. A checkpoint written by 4
// ranks and read by 3 is shared out evenly (its parts, not one file per writing rank).
#include "dedup/identify_checkpoint.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>

#include "dedup/dedup_step.h"
#include "dedup/fuzzy_keyer.h"
#include "dedup/planted_texts.h"
#include "dist/thread_comm.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Six shards of planted near-copies: shard s holds documents (s, row).
std::vector<std::vector<std::string>> planted_shards() {
  std::vector<std::string> bases = testing::machine_texts(600);
  std::mt19937_64 rng(5);
  std::vector<std::vector<std::string>> shards(6);
  for (int i = 0; i < 120; ++i) {
    std::string base = testing::window(bases[(i * 7) % bases.size()], 800, rng);
    shards[i % 6].push_back(base);
    shards[(i + 1) % 6].push_back(testing::edit_text(base, 2, rng));
    if (i % 4 == 0) shards[(i + 3) % 6].push_back(testing::edit_text(base, 3, rng));
  }
  return shards;
}

// A job that "dies" once `phase` of its checkpoint is complete.
std::function<Status(const std::string&)> stop_at(const std::string& phase) {
  return [phase](const std::string& done) {
    return done == phase ? Status::error("killed after the " + phase) : Status::ok();
  };
}

struct Outcome {
  Status status;
  std::string table;
  bool resumed = false;
  std::string summary;  // rank 0's, with identify_run
  uint64_t observed = 0;              // documents shown to observe() over the ranks
  std::vector<size_t> removals_known;  // per rank
};

// The step on `ranks` thread ranks, shard s read by rank s mod ranks, as the pipeline drives it.
Outcome identify(const std::string& dir, int ranks, bool checkpoint, const std::string& fingerprint,
                 std::function<Status(const std::string&)> after_checkpoint = nullptr) {
  const auto shards = planted_shards();
  std::filesystem::remove_all(dir + "/result");
  std::filesystem::create_directories(dir + "/result");
  testing::ThreadComms comms(ranks);
  Outcome out;
  out.removals_known.resize(static_cast<size_t>(ranks));
  std::mutex mutex;
  std::atomic<uint64_t> observed{0};
  comms.run([&](dist::Comm& comm) {
    MinHashParams params;
    params.bands = 20;
    params.rows = 5;
    DedupStepOptions options;
    options.kind = "fuzzy";
    options.partitions = 8;
    options.checkpoint = checkpoint;
    options.after_checkpoint = after_checkpoint;
    DedupStep step(std::make_unique<FuzzyKeyer>(params), options);
    GlobalStepContext context{dir + "/result", dir + "/spill-" + std::to_string(comm.rank()), 1,
                              {}, &comm};
    context.checkpoint_dir = dir + "/checkpoint";
    context.fingerprint = fingerprint;
    Status status = step.begin_identify(context);
    const bool resumed = step.resume_identify();
    for (size_t s = static_cast<size_t>(comm.rank()); status.is_ok() && !resumed && s < shards.size();
         s += static_cast<size_t>(ranks)) {
      std::vector<testing::TestDoc> docs;
      for (const std::string& text : shards[s]) docs.push_back({text});
      auto batch = testing::make_batch(docs, static_cast<uint32_t>(s));
      observed += batch->size();
      status = step.observe(*batch);
    }
    if (status.is_ok()) status = step.finish_identify();
    size_t known = 0;
    for (size_t s = 0; s < shards.size(); ++s) {
      for (size_t row = 0; row < shards[s].size(); ++row) {
        known += step.removal(DocKey::make(static_cast<uint32_t>(s), row)) != nullptr;
      }
    }
    std::lock_guard lock(mutex);
    if (comm.rank() == 0) {
      out.status = status, out.resumed = resumed, out.summary = step.summary_json();
    }
    out.removals_known[static_cast<size_t>(comm.rank())] = known;
  });
  out.observed = observed;
  if (out.status.is_ok()) out.table = read_file(dir + "/result/duplicates.jsonl");
  return out;
}

TEST(IdentifyCheckpoint, AJobStoppedAfterTheReadPassResumesOnAnotherRankCount) {
  testing::TempDir dir;
  const Outcome whole = identify(dir.file("whole"), 1, false, "f1");
  ASSERT_TRUE(whole.status.is_ok()) << whole.status.message();
  ASSERT_FALSE(whole.table.empty());
  // A job on 2 ranks stops once its checkpoint is complete.
  const Outcome stopped = identify(dir.file("job"), 2, true, "f1",
                                   stop_at("records"));
  ASSERT_FALSE(stopped.status.is_ok());
  EXPECT_EQ(stopped.observed, whole.observed);
  for (int ranks : {3, 1}) {
    const Outcome resumed = identify(dir.file("job"), ranks, true, "f1");
    ASSERT_TRUE(resumed.status.is_ok()) << resumed.status.message();
    EXPECT_TRUE(resumed.resumed) << ranks;
    EXPECT_EQ(resumed.observed, 0u) << "a resumed run reads no input";
    EXPECT_EQ(resumed.table, whole.table) << ranks << " ranks";
    // Every rank knows every removal (the writing pass may give it any shard): as many as
    // one process knows after a whole run.
    for (size_t known : resumed.removals_known) EXPECT_EQ(known, whole.removals_known[0]);
    EXPECT_GT(whole.removals_known[0], 20u);
  }
}

TEST(IdentifyCheckpoint, AJobStoppedAfterTheLinksResumesAtTheConnectedComponents) {
  testing::TempDir dir;
  const Outcome whole = identify(dir.file("whole"), 1, false, "f1");
  ASSERT_TRUE(whole.status.is_ok()) << whole.status.message();
  ASSERT_FALSE(identify(dir.file("job"), 2, true, "f1", stop_at("links")).status.is_ok());
  for (int ranks : {3, 2}) {
    const Outcome resumed = identify(dir.file("job"), ranks, true, "f1");
    ASSERT_TRUE(resumed.status.is_ok()) << resumed.status.message();
    EXPECT_NE(resumed.summary.find("resumed from the links"), std::string::npos) << resumed.summary;
    EXPECT_EQ(resumed.observed, 0u);
    EXPECT_EQ(resumed.table, whole.table) << ranks << " ranks";
    for (size_t known : resumed.removals_known) EXPECT_EQ(known, whole.removals_known[0]);
  }
}

TEST(IdentifyCheckpoint, AnotherFingerprintReadsTheInputAgain) {
  testing::TempDir dir;
  const Outcome stopped = identify(dir.file("job"), 2, true, "f1",
                                   stop_at("records"));
  ASSERT_FALSE(stopped.status.is_ok());
  const Outcome other = identify(dir.file("job"), 2, true, "f2");
  ASSERT_TRUE(other.status.is_ok()) << other.status.message();
  EXPECT_FALSE(other.resumed);
  EXPECT_GT(other.observed, 0u);
}

TEST(IdentifyCheckpoint, ADamagedCheckpointFailsNamingTheFile) {
  testing::TempDir dir;
  ASSERT_FALSE(identify(dir.file("job"), 2, true, "f1",
                        stop_at("records"))
                   .status.is_ok());
  const std::string file = dir.file("job") + "/checkpoint/rank-1-0.records";
  std::string bytes = read_file(file);
  ASSERT_GT(bytes.size(), 100u);
  bytes[bytes.size() / 2] ^= 0x20;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  const Outcome resumed = identify(dir.file("job"), 3, true, "f1");
  ASSERT_FALSE(resumed.status.is_ok());
  EXPECT_NE(resumed.status.message().find("rank-1-0.records"), std::string::npos)
      << resumed.status.message();
}

// 4 writing ranks of 16 equal blocks each: 32 part files of 2 blocks. Read on 3 ranks, file f
// by rank f mod 3: 11, 11 and 10 files, 22, 22 and 20 blocks (one file per writing rank would
// have given 32, 16 and 16).
TEST(IdentifyCheckpoint, ACheckpointOfFourRanksIsSharedEvenlyByThree) {
  testing::TempDir dir;
  {
    testing::ThreadComms comms(4);
    comms.run([&](dist::Comm& comm) {
      IdentifyCheckpoint checkpoint(dir.file("checkpoint"), "fp", comm);
      ASSERT_TRUE(checkpoint.begin_writing().is_ok());
      for (int b = 0; b < 16; ++b) {
        ASSERT_TRUE(checkpoint.add(nullptr, 0, "entries of one batch", 1).is_ok());
      }
      ASSERT_TRUE(checkpoint.finish_writing().is_ok());
    });
  }
  std::vector<uint64_t> blocks(3, 0);
  testing::ThreadComms comms(3);
  comms.run([&](dist::Comm& comm) {
    IdentifyCheckpoint checkpoint(dir.file("checkpoint"), "fp", comm);
    ASSERT_TRUE(checkpoint.complete("records"));
    uint64_t mine = 0;
    ASSERT_TRUE(checkpoint
                    .replay([&](const BucketRecord*, size_t n, std::string_view entries,
                                uint64_t documents) {
                      EXPECT_EQ(n, 0u);
                      EXPECT_EQ(entries, "entries of one batch");
                      EXPECT_EQ(documents, 1u);
                      ++mine;
                      return Status::ok();
                    })
                    .is_ok());
    blocks[static_cast<size_t>(comm.rank())] = mine;
  });
  EXPECT_EQ(blocks, (std::vector<uint64_t>{22, 22, 20}));
}

}  // namespace
}  // namespace winnow
