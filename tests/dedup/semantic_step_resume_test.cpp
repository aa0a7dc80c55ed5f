// SemanticStep with `checkpoint` (dedup/identify_checkpoint.h, the "records" phase holding the
// embedding log's entries), ranks as threads (dist/thread_comm.h), driven as the pipeline drives
// it (begin, resume_identify, observe unless resumed, finish):
//  - a job stopped once its checkpoint is complete (before the k-means) resumes on 3 ranks and
//    on 1 without observing a document: the whole run's duplicates.jsonl, bad_embeddings.jsonl
//    and summary, byte for byte, and every rank then knows every removal and bad item (the
//    writing pass may send it any shard);
//  - a checkpoint of another fingerprint is not used: the input is read again;
//  - a damaged checkpoint fails the run, naming the file.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "core/doc_key.h"
#include "dedup/planted_embeddings.h"
#include "dedup/semantic_step.h"
#include "dist/thread_comm.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;

constexpr size_t kShards = 5;

// Planted near-copies and two bad embeddings, dealt into kShards shards.
std::vector<std::vector<std::string>> planted_shards() {
  testing::Planted p = testing::plant(600, 16, {1.0, 0.999, 0.99}, 40, 5);
  std::vector<std::vector<std::string>> shards(kShards);
  for (size_t i = 0; i < p.rows.size(); ++i) {
    std::string record = "{\"embedding\":" + testing::embedding_json(p.rows[i]) + "}";
    if (i == 17) record = "{\"embedding\":[1,2]}";
    if (i == 333) record = "{\"other\":1}";
    shards[i % kShards].push_back(record);
  }
  return shards;
}

std::string strip_run(const std::string& summary) {
  return summary.substr(0, summary.find("\"identify_run\""));
}

struct Outcome {
  Status status;
  bool resumed = false;
  std::string table, bad_table, summary;  // rank 0's; the summary without identify_run
  std::string run;                         // rank 0's identify_run
  uint64_t observed = 0;                   // documents shown to observe() over the ranks
  std::vector<size_t> removals_known, bad_known;  // per rank
};

// The step on `ranks` thread ranks, shard s read by rank s mod ranks.
Outcome identify(const std::string& dir, int ranks, const std::string& fingerprint,
                 std::function<Status(const std::string&)> after_checkpoint = nullptr) {
  const auto shards = planted_shards();
  fs::remove_all(dir + "/result");
  fs::create_directories(dir + "/result");
  testing::ThreadComms comms(ranks);
  Outcome out;
  out.removals_known.resize(static_cast<size_t>(ranks));
  out.bad_known.resize(static_cast<size_t>(ranks));
  std::mutex mutex;
  std::atomic<uint64_t> observed{0};
  comms.run([&](dist::Comm& comm) {
    SemanticOptions options;
    options.n_clusters = 6;
    options.eps = 0.01;
    options.eps_sweep = {0.001, 0.05};
    options.seed = 3;
    options.block = 32;
    options.checkpoint = true;
    options.after_checkpoint = after_checkpoint;
    SemanticStep step(options);
    GlobalStepContext context{dir + "/result", dir + "/spill-" + std::to_string(comm.rank()), 2,
                              {"a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl"}, &comm};
    context.checkpoint_dir = dir + "/checkpoint";
    context.fingerprint = fingerprint;
    Status status = step.begin_identify(context);
    const bool resumed = step.resume_identify();
    for (size_t s = static_cast<size_t>(comm.rank()); status.is_ok() && !resumed && s < kShards;
         s += static_cast<size_t>(ranks)) {
      std::vector<testing::TestDoc> docs;
      for (size_t row = 0; row < shards[s].size(); ++row) {
        docs.push_back({"text " + std::to_string(s) + "/" + std::to_string(row), shards[s][row]});
      }
      auto batch = testing::make_batch(docs, static_cast<uint32_t>(s));
      observed += batch->size();
      status = step.observe(*batch);
    }
    Status finished = step.finish_identify();
    if (status.is_ok()) status = finished;
    size_t removals = 0, bad = 0;
    for (size_t s = 0; s < kShards; ++s) {
      for (size_t row = 0; row < shards[s].size(); ++row) {
        const uint64_t key = DocKey::make(static_cast<uint32_t>(s), row).value();
        removals += step.removal(key) != nullptr;
        bad += step.bad(key);
      }
    }
    std::lock_guard lock(mutex);
    if (comm.rank() == 0) {
      out.status = status;
      out.resumed = resumed;
      out.summary = strip_run(step.summary_json());
      const std::string whole = step.summary_json();
      const size_t at = whole.find("\"identify_run\"");
      if (at != std::string::npos) out.run = whole.substr(at);
    }
    out.removals_known[static_cast<size_t>(comm.rank())] = removals;
    out.bad_known[static_cast<size_t>(comm.rank())] = bad;
  });
  out.observed = observed;
  if (out.status.is_ok()) {
    out.table = testing::read_file(dir + "/result/" + SemanticStep::kTable);
    out.bad_table = testing::read_file(dir + "/result/" + SemanticStep::kBadTable);
  }
  return out;
}

// A job that "dies" once its checkpoint is complete.
Status stop_after_records(const std::string& phase) {
  return phase == "records" ? Status::error("killed after the records") : Status::ok();
}

TEST(SemanticStepResume, AJobStoppedAfterItsCheckpointResumesOnAnotherRankCount) {
  testing::TempDir whole_dir, dir;
  const Outcome whole = identify(whole_dir.path(), 2, "fp");
  ASSERT_TRUE(whole.status.is_ok()) << whole.status.message();
  ASSERT_FALSE(whole.resumed);
  ASSERT_NE(whole.table.find("\"similarity\""), std::string::npos) << "copies were planted";
  ASSERT_NE(whole.bad_table, "");
  EXPECT_NE(whole.run.find("\"checkpoint\": \"written\""), std::string::npos) << whole.run;

  const Outcome stopped = identify(dir.path(), 2, "fp", stop_after_records);
  ASSERT_FALSE(stopped.status.is_ok());
  EXPECT_NE(stopped.status.message().find("killed after the records"), std::string::npos);
  ASSERT_TRUE(fs::exists(dir.file("checkpoint/records.complete")));

  for (int ranks : {3, 1}) {
    const Outcome resumed = identify(dir.path(), ranks, "fp");
    ASSERT_TRUE(resumed.status.is_ok()) << ranks << ": " << resumed.status.message();
    EXPECT_TRUE(resumed.resumed) << ranks;
    EXPECT_EQ(resumed.observed, 0u) << "a resumed job reads no document";
    EXPECT_EQ(resumed.table, whole.table) << ranks << " ranks";
    EXPECT_EQ(resumed.bad_table, whole.bad_table) << ranks << " ranks";
    EXPECT_EQ(resumed.summary, whole.summary) << ranks << " ranks";
    EXPECT_NE(resumed.run.find("\"checkpoint\": \"resumed from the records\""), std::string::npos)
        << resumed.run;
    const size_t removed = static_cast<size_t>(
        std::count(resumed.table.begin(), resumed.table.end(), '\n'));
    for (int r = 0; r < ranks; ++r) {
      EXPECT_EQ(resumed.removals_known[static_cast<size_t>(r)], removed) << "rank " << r;
      EXPECT_EQ(resumed.bad_known[static_cast<size_t>(r)], 2u) << "rank " << r;
    }
  }
}

TEST(SemanticStepResume, AnotherFingerprintReadsTheInputAgain) {
  testing::TempDir dir;
  ASSERT_FALSE(identify(dir.path(), 2, "fp", stop_after_records).status.is_ok());
  const Outcome other = identify(dir.path(), 2, "another");
  ASSERT_TRUE(other.status.is_ok()) << other.status.message();
  EXPECT_FALSE(other.resumed);
  EXPECT_GT(other.observed, 0u);
}

TEST(SemanticStepResume, ADamagedCheckpointFailsNamingTheFile) {
  testing::TempDir dir;
  ASSERT_FALSE(identify(dir.path(), 2, "fp", stop_after_records).status.is_ok());
  const std::string file = dir.file("checkpoint/rank-1-0.records");
  ASSERT_TRUE(fs::exists(file));
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
    char byte = 0;
    f.read(&byte, 1);
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
    byte = static_cast<char>(byte ^ 0x5A);
    f.write(&byte, 1);
  }
  const Outcome resumed = identify(dir.path(), 2, "fp");
  ASSERT_FALSE(resumed.status.is_ok());
  EXPECT_NE(resumed.status.message().find("rank-1-0.records"), std::string::npos)
      << resumed.status.message();
}

}  // namespace
}  // namespace winnow
