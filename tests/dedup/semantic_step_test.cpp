// SemanticStep driven as the pipeline drives it (begin, observe, finish, load), on seeded
// random embeddings with planted near-copies at known cosines:
//  - parity: with n_clusters 1 the removal set equals a straightforward all-pairs reference
//    written here (double precision, NeMo's rule) for hard, easy and random ranking at three eps;
//  - recall with many clusters: copies at cosine >= 0.995 go at eps 0.01; none below 0.98 does;
//  - a damaged cluster spill file fails the run, naming the file;
//  - clusters larger than memory_mb, streamed from tile files, give the in-memory run's
//    duplicates.jsonl byte for byte, for 1 and 2 threads; a damaged tile fails the run;
//  - bad embeddings (missing, wrong length, not numbers) are set aside, named by file and line;
//  - the phases alone: loading sorts by key, normalises and sets aside; ranking orders members
//    as each ranking says.
#include "dedup/semantic_step.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "core/doc_key.h"
#include "core/hash.h"
#include "dedup/cluster_spill.h"
#include "dedup/planted_embeddings.h"
#include "dedup/semantic_clustering.h"
#include "dedup/semantic_items.h"
#include "stages/filter_test_support.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::plant;
using testing::Planted;
using testing::unit;

std::string record_of(const std::vector<float>& row) {
  return "{\"embedding\":" + testing::embedding_json(row) + "}";
}

struct StepRun {
  Status status;
  std::set<uint64_t> removed;  // row indices
  std::set<uint64_t> bad;
  std::map<std::pair<uint64_t, uint64_t>, bool> removed_pairs;  // (row, matched row)
  std::string summary;
  std::string bad_table;
  std::string table;  // duplicates.jsonl
};

StepRun run_step(const std::vector<std::string>& records, SemanticOptions options,
                 const std::function<Status(const ClusterSpill&)>& hook = {}, int threads = 2) {
  testing::TempDir dir;
  SemanticStep step(options);
  if (hook) step.set_after_spill(hook);
  GlobalStepContext context{dir.path(), dir.file("spill"), threads, {"in.jsonl"}};
  EXPECT_TRUE(step.begin_identify(context).is_ok());
  // Two batches, as two workers would send them.
  size_t half = records.size() / 2;
  std::vector<testing::TestDoc> a, b;
  for (size_t i = 0; i < records.size(); ++i) {
    (i < half ? a : b).push_back({"text " + std::to_string(i), records[i]});
  }
  auto batch_b = testing::make_batch(b, 0, half);
  auto batch_a = testing::make_batch(a, 0, 0);
  EXPECT_TRUE(step.observe(*batch_b).is_ok());
  EXPECT_TRUE(step.observe(*batch_a).is_ok());
  StepRun run;
  run.status = step.finish_identify();
  if (!run.status.is_ok()) return run;
  for (size_t i = 0; i < records.size(); ++i) {
    uint64_t key = DocKey::make(0, i).value();
    if (const SemanticRemoval* r = step.removal(key)) {
      run.removed.insert(i);
      uint64_t matched = std::stoull(r->matched_id.substr(5));  // "orig-N"
      run.removed_pairs[{i, matched}] = true;
    }
    if (step.bad(key)) run.bad.insert(i);
  }
  run.summary = step.summary_json();
  run.bad_table = testing::read_file(dir.file(SemanticStep::kBadTable));
  run.table = testing::read_file(dir.file(SemanticStep::kTable));
  return run;
}

// NeMo's rule, all pairs, one cluster: rank, then each item's maximum cosine to the items
// ranked before it (at least 0); removed when >= 1 - eps.
std::set<uint64_t> reference(const std::vector<std::vector<float>>& rows, SemanticRanking ranking,
                             double eps, uint64_t seed) {
  const size_t n = rows.size(), d = rows[0].size();
  std::vector<std::vector<double>> x;
  for (const auto& r : rows) x.push_back(unit(std::vector<double>(r.begin(), r.end())));
  std::vector<double> centroid(d, 0);
  for (const auto& v : x) {
    for (size_t j = 0; j < d; ++j) centroid[j] += v[j];
  }
  centroid = unit(centroid);
  std::vector<double> rank(n);
  for (size_t i = 0; i < n; ++i) {
    double dot = 0;
    for (size_t j = 0; j < d; ++j) dot += x[i][j] * centroid[j];
    rank[i] = ranking == SemanticRanking::kRandom
                  ? unit_interval(hash_u64(DocKey::make(0, i).value(), seed))
                  : 1 - dot;
  }
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (ranking == SemanticRanking::kHard) {
      return rank[a] != rank[b] ? rank[a] > rank[b] : a > b;
    }
    return rank[a] != rank[b] ? rank[a] < rank[b] : a < b;
  });
  std::set<uint64_t> removed;
  for (size_t p = 0; p < n; ++p) {
    double best = 0;
    for (size_t q = 0; q < p; ++q) {
      double dot = 0;
      for (size_t j = 0; j < d; ++j) dot += x[order[p]][j] * x[order[q]][j];
      best = std::max(best, dot);
    }
    if (best >= 1 - eps) removed.insert(order[p]);
  }
  return removed;
}

TEST(SemanticStep, OneClusterEqualsTheAllPairsReference) {
  // Cosines kept away from the thresholds (0.99, 0.95, 0.9), plus exact copies.
  Planted p = plant(500, 24, {1.0, 0.999, 0.993, 0.97, 0.93, 0.8}, 25, 1);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  for (SemanticRanking ranking :
       {SemanticRanking::kHard, SemanticRanking::kEasy, SemanticRanking::kRandom}) {
    for (double eps : {0.01, 0.05, 0.1}) {
      SemanticOptions o;
      o.n_clusters = 1;
      o.max_points_per_centroid = 1000;  // fit on every point: the centroid is their mean
      o.ranking = ranking;
      o.eps = eps;
      o.seed = 9;
      o.block = 64;
      StepRun run = run_step(records, o);
      ASSERT_TRUE(run.status.is_ok()) << run.status.message();
      auto expected = reference(p.rows, ranking, eps, 9);
      EXPECT_GT(expected.size(), 20u);
      EXPECT_EQ(run.removed, expected) << "ranking " << static_cast<int>(ranking) << " eps " << eps;
    }
  }
}

TEST(SemanticStep, ManyClustersRemoveCloseCopiesAndNeverFarOnes) {
  // 0.995+ copies must go at eps 0.01; copies at 0.97 and below (< 1 - 2 eps) never.
  Planted p = plant(3000, 32, {0.9999, 0.998, 0.995, 0.975, 0.95, 0.9}, 60, 2);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  SemanticOptions o;
  o.n_clusters = 30;
  o.eps = 0.01;
  o.seed = 5;
  StepRun run = run_step(records, o);
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  size_t close = 0, caught = 0;
  for (size_t i = 0; i < p.pairs.size(); ++i) {
    auto [copy, original] = p.pairs[i];
    bool linked =
        run.removed_pairs.count({copy, original}) || run.removed_pairs.count({original, copy});
    if (p.cosines[i] >= 0.995) {
      ++close;
      caught += run.removed.count(copy) || run.removed.count(original);
    } else {
      EXPECT_FALSE(linked) << "a pair at cosine " << p.cosines[i] << " was removed";
    }
  }
  EXPECT_GE(caught * 100, close * 99) << caught << " of " << close;
  EXPECT_NE(run.summary.find("\"eps_sweep\""), std::string::npos);
  EXPECT_NE(run.summary.find("\"cluster_size_histogram\""), std::string::npos);
}

TEST(SemanticStep, SameResultForAnyThreadCount) {
  Planted p = plant(1500, 16, {0.999, 0.98}, 50, 3);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  SemanticOptions o;
  o.n_clusters = 12;
  o.eps_sweep = {0.001, 0.05};
  o.block = 16;  // clusters above 64 rows are pruned by all threads over their blocks
  StepRun one = run_step(records, o, {}, 1);
  ASSERT_TRUE(one.status.is_ok());
  for (int threads : {2, 4}) {
    StepRun other = run_step(records, o, {}, threads);
    EXPECT_EQ(other.removed, one.removed) << threads;
    auto strip = [](std::string s) { return s.substr(0, s.find("\"identify_run\"")); };
    EXPECT_EQ(strip(other.summary), strip(one.summary)) << threads;
  }
}

TEST(SemanticStep, RankingByFieldKeepsTheHighestAndKeepOnePerGroupKeepsOne) {
  // Three exact copies of one row with qualities 1, 7, 3 among unrelated rows.
  Planted p = plant(100, 8, {}, 0, 6);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  const std::string copy = testing::embedding_json(p.rows[0]);
  records[10] = "{\"quality\":1,\"embedding\":" + copy + "}";
  records[20] = "{\"quality\":7,\"embedding\":" + copy + "}";
  records[30] = "{\"quality\":3,\"embedding\":" + copy + "}";
  records[0] = "{\"embedding\":" + copy + "}";  // no quality: ranked last
  SemanticOptions o;
  o.n_clusters = 3;
  o.ranking = SemanticRanking::kField;
  o.ranking_field = "quality";
  StepRun run = run_step(records, o);
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  EXPECT_EQ(run.removed, (std::set<uint64_t>{0, 10, 30}));
  EXPECT_TRUE(run.removed_pairs.count({10, 20}));  // matched the kept one, ranked first
  // NeMo's rule drops an item matched only by a dropped one; keep_one_per_group does not.
  // A chain a - b - c at cosines 0.992 (a, b) and (b, c), (a, c) about 0.968: with eps 0.01
  // NeMo drops b and c, keep_one_per_group drops b only.
  std::vector<float> a = {1, 0, 0}, b = {0.992f, 0.12625f, 0}, c = {0.968f, 0.25f, 0.02f};
  std::vector<std::string> chain = {record_of(a), record_of(b), record_of(c)};
  SemanticOptions g;
  g.n_clusters = 1;
  g.ranking = SemanticRanking::kField;
  g.ranking_field = "missing";  // all equal: the key decides (a, b, c)
  g.normalize = true;
  StepRun nemo = run_step(chain, g);
  ASSERT_TRUE(nemo.status.is_ok()) << nemo.status.message();
  g.keep_one_per_group = true;
  StepRun one = run_step(chain, g);
  ASSERT_TRUE(one.status.is_ok()) << one.status.message();
  EXPECT_EQ(nemo.removed, (std::set<uint64_t>{1, 2}));
  EXPECT_EQ(one.removed, (std::set<uint64_t>{1}));
}

TEST(SemanticStep, DamagedClusterSpillFailsNamingTheFile) {
  Planted p = plant(200, 8, {0.999}, 10, 4);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  SemanticOptions o;
  o.n_clusters = 4;
  o.partitions = 2;
  std::string damaged;
  StepRun run = run_step(records, o, [&](const ClusterSpill& spill) {
    damaged = spill.path(1);
    std::string bytes = testing::read_file(damaged);
    bytes[bytes.size() / 2] ^= 0x10;
    testing::write_file(damaged, bytes);
    return Status::ok();
  });
  ASSERT_FALSE(run.status.is_ok());
  EXPECT_NE(run.status.message().find(damaged), std::string::npos) << run.status.message();
}

TEST(SemanticStep, ClustersLargerThanMemoryStreamWithTheSameResult) {
  Planted p = plant(2400, 32, {1.0, 0.999, 0.996, 0.98, 0.95}, 150, 6);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  auto strip = [](std::string s) { return s.substr(0, s.find("\"identify_run\"")); };
  for (bool keep_one : {false, true}) {
    SemanticOptions o;
    o.n_clusters = 3;
    o.eps = 0.01;
    o.eps_sweep = {0.002, 0.03};
    o.keep_one_per_group = keep_one;
    o.block = 32;
    StepRun in_memory = run_step(records, o, {}, 1);
    ASSERT_TRUE(in_memory.status.is_ok()) << in_memory.status.message();
    EXPECT_GT(in_memory.removed.size(), 50u);
    EXPECT_NE(in_memory.summary.find("\"streamed_clusters\": 0"), std::string::npos);
    // 64 KiB: every cluster (about 800 rows x 32 floats = 100 KiB) streams, in groups of a
    // few column blocks of 32 rows.
    o.memory_bytes = 64 << 10;
    for (int threads : {1, 2}) {
      StepRun streamed = run_step(records, o, {}, threads);
      ASSERT_TRUE(streamed.status.is_ok()) << streamed.status.message();
      EXPECT_EQ(streamed.summary.find("\"streamed_clusters\": 0"), std::string::npos)
          << streamed.summary;
      EXPECT_EQ(streamed.table, in_memory.table)
          << "keep_one " << keep_one << " threads " << threads;
      EXPECT_EQ(streamed.removed, in_memory.removed);
      EXPECT_EQ(strip(streamed.summary), strip(in_memory.summary));
    }
  }
}

TEST(SemanticStep, DamagedStreamedTileFailsNamingTheFile) {
  Planted p = plant(600, 16, {0.999}, 20, 8);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  SemanticOptions o;
  o.n_clusters = 2;
  o.block = 16;
  o.memory_bytes = 8 << 10;
  std::string damaged;
  StepRun run = run_step(records, o, [&](const ClusterSpill& spill) {
    if (spill.streamed().empty()) return Status::error("no cluster was streamed");
    const TileFile& tiles = spill.streamed().begin()->second;
    damaged = tiles.path;
    std::string bytes = testing::read_file(damaged);
    bytes[tiles.offset_of(tiles.tiles() - 1) + kSpillBlockHeaderBytes + 1] ^= 0x10;
    testing::write_file(damaged, bytes);
    return Status::ok();
  });
  ASSERT_FALSE(run.status.is_ok());
  EXPECT_FALSE(damaged.empty()) << run.status.message();
  EXPECT_NE(run.status.message().find(damaged), std::string::npos) << run.status.message();
}

TEST(SemanticStep, BadEmbeddingsAreSetAsideNamingFileAndLine) {
  Planted p = plant(60, 4, {0.999}, 5, 5);
  std::vector<std::string> records;
  for (const auto& row : p.rows) records.push_back(record_of(row));
  records[3] = "{\"embedding\":[1,2,3]}";        // wrong length
  records[7] = "{\"embedding\":[1,\"x\",3,4]}";  // not a number
  records[9] = "{\"other\":1}";                  // missing
  records[11] = "{\"embedding\":[0,0,0,0]}";     // cannot be normalised
  SemanticOptions o;
  o.n_clusters = 2;
  StepRun run = run_step(records, o);
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  EXPECT_EQ(run.bad, (std::set<uint64_t>{3, 7, 9, 11}));
  EXPECT_NE(run.bad_table.find("in.jsonl:4: stage 'semantic_dedup': embedding field 'embedding' "
                               "has 3 numbers, expected 4"),
            std::string::npos)
      << run.bad_table;
  EXPECT_NE(run.bad_table.find("in.jsonl:8:"), std::string::npos);
  EXPECT_NE(run.bad_table.find("item 1 is not a number"), std::string::npos);
  EXPECT_NE(run.bad_table.find("in.jsonl:10: stage 'semantic_dedup': embedding field "
                               "'embedding' is missing"),
            std::string::npos);
  EXPECT_NE(run.bad_table.find("zero vector"), std::string::npos);
}

// Phase 1 alone: items come back in key order with their rows normalised; a wrong length and
// a zero vector are set aside, named by the shard's file and line, sorted by key.
TEST(SemanticItems, LoadSortsNormalisesAndSetsAside) {
  testing::TempDir dir;
  EmbeddingLog log(dir.path() + "/log.spill", 1 << 20);
  std::string serialized;
  auto add = [&](uint64_t key, uint64_t line, std::vector<float> v) {
    LoggedItem item;
    item.key = key;
    item.line = line;
    item.floats = std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * 4);
    EmbeddingLog::serialize(serialized, item);
  };
  add(30, 3, {3, 4});
  add(10, 1, {0, 2});
  add(40, 4, {1, 2, 3});  // the dimension is that of the smallest key: 2
  add(20, 2, {0, 0});     // cannot be normalised
  ASSERT_TRUE(log.add(serialized).is_ok());
  SemanticOptions options;
  SemanticItems loaded;
  ASSERT_TRUE(load_semantic_items(log, options, {"in.jsonl"}, dir.path() + "/spill", loaded)
                  .is_ok());
  ASSERT_EQ(loaded.dimension, 2u);
  ASSERT_EQ(loaded.items.size(), 2u);
  EXPECT_EQ(loaded.items[0].key, 10u);
  EXPECT_EQ(loaded.items[1].key, 30u);
  EXPECT_EQ(std::vector<float>(loaded.matrix.row(0), loaded.matrix.row(0) + 2),
            (std::vector<float>{0, 1}));
  EXPECT_EQ(std::vector<float>(loaded.matrix.row(1), loaded.matrix.row(1) + 2),
            (std::vector<float>{0.6f, 0.8f}));
  ASSERT_EQ(loaded.bad.size(), 2u);
  EXPECT_EQ(loaded.bad[0].first, 20u);
  EXPECT_NE(loaded.bad[0].second.find("in.jsonl:2: stage 'semantic_dedup'"), std::string::npos);
  EXPECT_NE(loaded.bad[0].second.find("zero vector"), std::string::npos);
  EXPECT_EQ(loaded.bad[1].first, 40u);
  EXPECT_NE(loaded.bad[1].second.find("has 3 numbers, expected 2"), std::string::npos);
}

// The order a cluster is decided in, the first of near-copies kept: hard, the farthest from the
// centroid first; easy, the nearest; ties by key in the ranking's direction; field: the
// highest value first, items without one last.
TEST(SemanticClustering, RankMembersOrdersAsEachRankingSays) {
  const double nan = std::nan("");
  std::vector<ClusterMember> members = {
      {5, 0.2, "a", ""}, {3, 0.7, "b", ""}, {9, 0.2, "c", ""}, {1, nan, "d", ""}};
  std::vector<uint32_t> order;
  rank_members({members.begin(), members.begin() + 3}, order, SemanticRanking::kHard);
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 2, 0}));
  rank_members({members.begin(), members.begin() + 3}, order, SemanticRanking::kEasy);
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 2, 1}));
  rank_members(members, order, SemanticRanking::kField);
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 0, 2, 3}));
}

}  // namespace
}  // namespace winnow
