// Semantic dedup divided across ranks (dedup/semantic_owners.h; ranks as threads,
// dist/thread_comm.h):
//  - the owner map and the rounds, against expectations derived by hand from their rules;
//  - SemanticStep on 1..8 ranks, each observing its own rows (with 3 ranks, rank 0 none): the
//    same duplicates.jsonl, bad_embeddings.jsonl and summary bytes as one process; each rank
//    learns the removals and bad items of its own rows only, and together they are one
//    process's;
//  - an adversarial set of near ties (rows at the midpoints of pairs, and copies of them, which
//    sit between centroids), with a memory budget that forces several rounds and streamed
//    clusters: the same bytes again, and no rank ever holds more rows than its own share, one
//    round's worth or the largest cluster (the counter rows_held()), never all of them.
#include "dedup/semantic_owners.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "core/doc_key.h"
#include "dedup/planted_embeddings.h"
#include "dedup/semantic_step.h"
#include "dist/thread_comm.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::plant;
using testing::Planted;

std::string record_of(const std::vector<float>& row) {
  return "{\"embedding\":" + testing::embedding_json(row) + "}";
}

std::string strip_run(const std::string& summary) {
  return summary.substr(0, summary.find("\"identify_run\""));
}

struct RankedRun {
  Status status;
  std::string table, bad_table, summary;  // rank 0's files; the summary without identify_run
  std::map<uint64_t, std::string> removed;  // row -> matched id, from every rank's removal()
  std::set<uint64_t> bad;
  std::vector<uint64_t> rows_held, own_rows;  // per rank
  uint64_t largest_cluster = 0;
};

// The rank that observes row i: chunks of 7 rows dealt round-robin; with 3 ranks, rank 0 gets
// nothing. ranks == 0: one process, no Comm.
int reader_of(size_t row, int ranks) {
  if (ranks <= 1) return 0;
  const size_t chunk = row / 7;
  if (ranks == 3) return 1 + static_cast<int>(chunk % 2);
  return static_cast<int>(chunk % static_cast<size_t>(ranks));
}

RankedRun run_ranks(const std::vector<std::string>& records, const SemanticOptions& options,
                    int ranks) {
  testing::TempDir dir;
  const int count = std::max(ranks, 1);
  std::vector<std::unique_ptr<SemanticStep>> steps;
  for (int r = 0; r < count; ++r) steps.push_back(std::make_unique<SemanticStep>(options));
  std::vector<Status> statuses(static_cast<size_t>(count));
  RankedRun run;
  run.own_rows.assign(static_cast<size_t>(count), 0);
  auto body = [&](dist::Comm* comm) {
    const int r = comm ? comm->rank() : 0;
    SemanticStep& step = *steps[static_cast<size_t>(r)];
    GlobalStepContext context{dir.path(), dir.file("spill-" + std::to_string(r)), 2,
                              {"in.jsonl"}, comm};
    Status status = step.begin_identify(context);
    for (size_t first = 0; status.is_ok() && first < records.size(); first += 7) {
      if (reader_of(first, ranks) != r) continue;
      std::vector<testing::TestDoc> docs;
      for (size_t i = first; i < std::min(records.size(), first + 7); ++i) {
        docs.push_back({"text " + std::to_string(i), records[i]});
      }
      run.own_rows[static_cast<size_t>(r)] += docs.size();
      status = step.observe(*testing::make_batch(docs, 0, first));
    }
    // A failed observe still takes part, as the pipeline does (finish_identify agrees).
    Status finished = step.finish_identify();
    statuses[static_cast<size_t>(r)] = status.is_ok() ? finished : status;
  };
  if (ranks == 0) {
    body(nullptr);
  } else {
    testing::ThreadComms comms(ranks);
    comms.run([&](dist::Comm& comm) { body(&comm); });
  }
  for (const Status& s : statuses) {
    if (!s.is_ok()) {
      run.status = s;
      return run;
    }
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const uint64_t key = DocKey::make(0, i).value();
    for (int r = 0; r < count; ++r) {
      const SemanticStep& step = *steps[static_cast<size_t>(r)];
      const bool own = reader_of(i, ranks) == r;
      if (const SemanticRemoval* removal = step.removal(key)) {
        EXPECT_TRUE(own) << "rank " << r << " holds the removal of row " << i;
        run.removed[i] = removal->matched_id;
      }
      if (step.bad(key)) {
        EXPECT_TRUE(own) << "rank " << r << " holds bad row " << i;
        run.bad.insert(i);
      }
    }
  }
  for (int r = 0; r < count; ++r) {
    run.rows_held.push_back(steps[static_cast<size_t>(r)]->rows_held());
    EXPECT_EQ(strip_run(steps[static_cast<size_t>(r)]->summary_json()),
              strip_run(steps[0]->summary_json()))
        << "rank " << r << " of " << ranks;
  }
  run.summary = strip_run(steps[0]->summary_json());
  run.table = testing::read_file(dir.file(SemanticStep::kTable));
  run.bad_table = testing::read_file(dir.file(SemanticStep::kBadTable));
  simdjson::dom::parser parser;
  simdjson::dom::element summary;
  EXPECT_FALSE(parser.parse(steps[0]->summary_json()).get(summary));
  EXPECT_FALSE(summary["largest_cluster"].get(run.largest_cluster));
  return run;
}

// The largest cluster (50) to rank 0; then each to the least loaded rank, ties to rank 1 over
// nothing: 20 -> 1 (0 has 50), 20 -> 1 (20 < 50), 5 -> 1 (40), 1 -> 1 (45), 0 -> 1 (46).
TEST(ClusterOwners, LargestFirstToTheLeastLoadedRank) {
  const std::vector<uint64_t> sizes = {5, 50, 20, 20, 1, 0};
  EXPECT_EQ(cluster_owners(sizes, 2), (std::vector<int>{1, 0, 1, 1, 1, 1}));
  EXPECT_EQ(cluster_owners(sizes, 1), (std::vector<int>(6, 0)));
  // 4 ranks: 50 -> 0, 20 -> 1, 20 -> 2, 5 -> 3, 1 -> 3 (5 < 20), 0 -> 3 (6).
  EXPECT_EQ(cluster_owners(sizes, 4), (std::vector<int>{3, 0, 1, 2, 3, 3}));
}

// Rounds of at most 30 rows (1 byte each): owner 0's 50 goes alone in round 0; owner 1 takes
// 20 (round 0), then 20 would make 40 (round 1), 5 makes 25, 1 makes 26; empty: round 0.
TEST(ClusterOwners, RoundsHoldABudgetPerOwnerAndALargerClusterAlone) {
  const std::vector<uint64_t> sizes = {5, 50, 20, 20, 1, 0};
  const auto owners = cluster_owners(sizes, 2);
  EXPECT_EQ(cluster_rounds(sizes, owners, 1, 30), (std::vector<uint32_t>{1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(cluster_rounds(sizes, owners, 1, 1000), (std::vector<uint32_t>(6, 0)));
}

void expect_same_as_one_process(const std::vector<std::string>& records,
                                const SemanticOptions& options, size_t max_ranks,
                                bool check_rows) {
  RankedRun one = run_ranks(records, options, 0);
  ASSERT_TRUE(one.status.is_ok()) << one.status.message();
  EXPECT_FALSE(one.removed.empty());
  const size_t n = records.size();
  for (int ranks = 1; ranks <= static_cast<int>(max_ranks); ++ranks) {
    RankedRun divided = run_ranks(records, options, ranks);
    ASSERT_TRUE(divided.status.is_ok()) << divided.status.message();
    EXPECT_EQ(divided.table, one.table) << ranks << " ranks";
    EXPECT_EQ(divided.bad_table, one.bad_table) << ranks << " ranks";
    EXPECT_EQ(divided.summary, one.summary) << ranks << " ranks";
    EXPECT_EQ(divided.removed, one.removed) << ranks << " ranks";
    EXPECT_EQ(divided.bad, one.bad) << ranks << " ranks";
    if (!check_rows || ranks == 1) continue;
    // Rows held: the rank's own plus one round's (the budget, or one larger
    // cluster): never every row, as the gather of embeddings held.
    const size_t d = 16;
    const uint64_t round_rows =
        (options.memory_bytes / kClusterRoundShare) / (d * sizeof(float) + 64);
    for (size_t r = 0; r < divided.rows_held.size(); ++r) {
      const uint64_t bound =
          divided.own_rows[r] + std::max(round_rows, divided.largest_cluster);
      EXPECT_LE(divided.rows_held[r], bound) << "rank " << r << " of " << ranks;
      EXPECT_LT(divided.rows_held[r], n) << "rank " << r << " of " << ranks;
    }
  }
}

// Like examples/embed_semantic_dedup.yaml: many clusters, an eps sweep, exact and close copies,
// a few bad embeddings (one a dimension that differs from the others').
TEST(SemanticOwners, AnyRankCountGivesOneProcessBytes) {
  Planted p = plant(1500, 16, {1.0, 0.999, 0.995, 0.98}, 60, 3);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  records[40] = "{\"embedding\":[1,2,3]}";
  records[41] = "{\"other\":1}";
  records[700] = "{\"embedding\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}";
  SemanticOptions o;
  o.n_clusters = 12;
  o.eps = 0.01;
  o.eps_sweep = {0.001, 0.05};
  o.seed = 7;
  o.block = 32;
  expect_same_as_one_process(records, o, 8, false);
}

// Near ties: rows at the normalised midpoint of two base rows, each twice (an exact copy), and
// rows at the midpoint of a base row and its copy; random ranking, keep_one_per_group; and a
// budget of 48 KiB, so clusters travel in several rounds and stream from tile files.
TEST(SemanticOwners, NearTiesAndSmallMemoryGiveOneProcessBytesAndOnlyAShareOfRows) {
  Planted p = plant(900, 16, {0.999, 0.99}, 40, 11);
  std::vector<std::vector<float>> rows = p.rows;
  for (size_t i = 0; i + 1 < 400; i += 2) {
    std::vector<float> mid(16);
    double norm = 0;
    for (size_t j = 0; j < 16; ++j) {
      const double a = p.rows[i][j], b = p.rows[i + 1][j];
      const double na = std::sqrt(std::inner_product(p.rows[i].begin(), p.rows[i].end(),
                                                     p.rows[i].begin(), 0.0));
      const double nb = std::sqrt(std::inner_product(p.rows[i + 1].begin(), p.rows[i + 1].end(),
                                                     p.rows[i + 1].begin(), 0.0));
      mid[j] = static_cast<float>(a / na + b / nb);
      norm += double{mid[j]} * mid[j];
    }
    for (float& v : mid) v = static_cast<float>(v / std::sqrt(norm));
    rows.push_back(mid);
    rows.push_back(mid);
  }
  std::vector<std::string> records;
  for (const auto& row : rows) records.push_back(record_of(row));
  for (SemanticRanking ranking : {SemanticRanking::kRandom, SemanticRanking::kHard}) {
    SemanticOptions o;
    o.n_clusters = 10;
    o.eps = 0.02;
    o.seed = 3;
    o.block = 16;
    o.ranking = ranking;
    o.keep_one_per_group = ranking == SemanticRanking::kRandom;
    o.max_points_per_centroid = 60;  // the cap's sample is drawn across ranks
    o.memory_bytes = 48 << 10;
    expect_same_as_one_process(records, o, 4, true);
  }
}

}  // namespace
}  // namespace winnow
