// dedup/bucket_shuffle.h through DuplicateClusterer across ranks (threads standing in for MPI
// processes, dist/thread_comm.h): whatever the rank count, the memory budget (spills, many
// rounds of exchange) or the link shape, every rank builds the table one process builds.
#include "dedup/bucket_shuffle.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "dedup/table_text.h"
#include "dist/thread_comm.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::finish_table;
using testing::table_text;

using ::testing::HasSubstr;

struct Doc {
  uint64_t key;
  std::vector<uint64_t> buckets;  // band index -> bucket key
  double metric;
};

std::vector<Doc> random_docs(size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Doc> docs;
  for (size_t i = 0; i < n; ++i) {
    Doc d{(i % 5) * (uint64_t{1} << 40) + i, {}, static_cast<double>(rng() % 4)};
    // Small key spaces: shared buckets, chains, merged components.
    for (int band = 0; band < 4; ++band) d.buckets.push_back(rng() % (n * 6));
    docs.push_back(d);
  }
  return docs;
}

void add_docs(DuplicateClusterer& clusterer, const std::vector<const Doc*>& docs) {
  std::vector<BucketRecord> records;
  std::string infos;
  for (size_t i = 0; i < docs.size(); i += 97) {  // an awkward batch size
    records.clear();
    infos.clear();
    const size_t end = std::min(docs.size(), i + 97);
    for (size_t j = i; j < end; ++j) {
      for (size_t band = 0; band < docs[j]->buckets.size(); ++band) {
        records.push_back({band, docs[j]->buckets[band], docs[j]->key});
      }
      DocInfoLog::serialize(infos, docs[j]->key, docs[j]->metric,
                            "id-" + std::to_string(docs[j]->key % 100000));
    }
    ASSERT_TRUE(clusterer.add(records.data(), records.size(), infos, end - i).is_ok());
  }
}

std::string one_process(const std::vector<Doc>& docs, ClustererOptions options) {
  testing::TempDir dir;
  options.spill_dir = dir.file("spill");
  DuplicateClusterer clusterer(options);
  std::vector<const Doc*> all;
  for (const Doc& d : docs) all.push_back(&d);
  add_docs(clusterer, all);
  auto table = finish_table(clusterer, dir.file("table.jsonl"));
  EXPECT_TRUE(table.is_ok()) << table.status().message();
  return table.is_ok() ? table_text(*table) : "";
}

// Each rank gets the documents `rank_of` gives it; returns every rank's table (or error).
std::vector<std::string> across_ranks(const std::vector<Doc>& docs, ClustererOptions options,
                                      int ranks, const std::function<int(size_t)>& rank_of,
                                      std::vector<ClusterStats>* stats = nullptr) {
  testing::TempDir dir;
  testing::ThreadComms comms(ranks);
  std::vector<std::string> tables(static_cast<size_t>(ranks));
  if (stats) stats->assign(static_cast<size_t>(ranks), {});
  comms.run([&](dist::Comm& comm) {
    ClustererOptions mine = options;
    mine.spill_dir = dir.file("rank-" + std::to_string(comm.rank()));
    mine.comm = &comm;
    DuplicateClusterer clusterer(mine);
    std::vector<const Doc*> own;
    for (size_t i = 0; i < docs.size(); ++i) {
      if (rank_of(i) == comm.rank()) own.push_back(&docs[i]);
    }
    add_docs(clusterer, own);
    auto table = finish_table(clusterer, dir.file("table.jsonl"));
    const auto r = static_cast<size_t>(comm.rank());
    tables[r] = table.is_ok() ? table_text(*table) : "error: " + table.status().message();
    if (stats) (*stats)[r] = clusterer.stats();
  });
  return tables;
}

TEST(BucketShuffle, EveryRankBuildsTheOneProcessTable) {
  const std::vector<Doc> docs = random_docs(3000, 11);
  for (LinkShape links : {LinkShape::kChain, LinkShape::kAnchors, LinkShape::kAllPairs}) {
    for (SurvivorRule survivor : {SurvivorRule::kSmallestKey, SurvivorRule::kHighestField}) {
      ClustererOptions options;
      options.links = links;
      options.survivor = survivor;
      options.threads = 2;
      options.partitions = 16;
      const std::string expected = one_process(docs, options);
      ASSERT_GT(std::count(expected.begin(), expected.end(), '\n'), 100);
      for (int ranks : {2, 3, 4}) {
        // Documents spread by a scramble of their index, so every bucket crosses ranks.
        auto tables = across_ranks(docs, options, ranks, [ranks](size_t i) {
          return static_cast<int>((i * 2654435761u >> 7) % static_cast<size_t>(ranks));
        });
        for (const std::string& table : tables) {
          EXPECT_EQ(table, expected) << ranks << " ranks, links " << static_cast<int>(links);
        }
      }
    }
  }
}

// Verified links and star groups, the image dedup's shape, on 1 to 8 ranks: each reader sends
// its linked documents' sets to the ranks holding their links, and every rank count gives the
// same table; each rank learns exactly the removals of its own documents.
TEST(BucketShuffle, VerifiedStarsAreTheSameOnOneToEightRanks) {
  const std::vector<Doc> docs = random_docs(2000, 17);
  ClustererOptions options;
  options.links = LinkShape::kAllPairs;
  options.groups = GroupShape::kStars;
  options.survivor = SurvivorRule::kHighestField;
  options.partitions = 16;
  // A document's set is one number; a link holds unless the two numbers add up to 0 mod 3.
  auto set_of = [](uint64_t doc) { return std::vector<uint32_t>{static_cast<uint32_t>(doc * 7 % 3)}; };
  const DuplicateClusterer::LinkCheck check = [](const std::vector<uint32_t>& a,
                                                 const std::vector<uint32_t>& b) {
    return a.size() == 1 && b.size() == 1 && (a[0] + b[0]) % 3 != 0;
  };
  std::string expected;
  for (int ranks = 1; ranks <= 8; ++ranks) {
    testing::TempDir dir;
    testing::ThreadComms comms(ranks);
    std::vector<std::string> tables(static_cast<size_t>(ranks));
    std::vector<std::vector<uint64_t>> own(static_cast<size_t>(ranks));
    std::vector<ClusterResult> results(static_cast<size_t>(ranks));
    comms.run([&](dist::Comm& comm) {
      ClustererOptions mine = options;
      mine.spill_dir = dir.file("rank-" + std::to_string(comm.rank()));
      mine.comm = &comm;
      DuplicateClusterer clusterer(mine);
      std::vector<const Doc*> docs_here;
      const auto r = static_cast<size_t>(comm.rank());
      for (size_t i = 0; i < docs.size(); ++i) {
        if (static_cast<int>((i * 2654435761u >> 5) % static_cast<size_t>(ranks)) == comm.rank()) {
          docs_here.push_back(&docs[i]);
          own[r].push_back(docs[i].key);
        }
      }
      add_docs(clusterer, docs_here);
      ASSERT_TRUE(clusterer.compute_links().is_ok());
      std::vector<std::vector<uint32_t>> sets;
      for (uint64_t doc : clusterer.linked_documents()) {
        ASSERT_TRUE(std::find(own[r].begin(), own[r].end(), doc) != own[r].end());
        sets.push_back(set_of(doc));
      }
      auto finished = clusterer.finish({dir.file("table.jsonl"), TableFormat::kJsonl}, &sets, check);
      ASSERT_TRUE(finished.is_ok()) << finished.status().message();
      results[r] = std::move(finished).value();
      auto table = DuplicatesTable::read(dir.file("table.jsonl"));
      ASSERT_TRUE(table.is_ok());
      tables[r] = table_text(*table);
    });
    if (ranks == 1) {
      expected = tables[0];
      ASSERT_GT(std::count(expected.begin(), expected.end(), '\n'), 100);
      ASSERT_NE(expected.find(" - "), std::string::npos);
    }
    auto table = DuplicatesTable::read(dir.file("table.jsonl"));
    ASSERT_TRUE(table.is_ok());
    for (size_t r = 0; r < static_cast<size_t>(ranks); ++r) {
      EXPECT_EQ(tables[r], expected) << ranks << " ranks, seen by rank " << r;
      size_t removed_here = 0;
      for (const DuplicateEntry& e : table->entries) {
        const bool mine = std::find(own[r].begin(), own[r].end(), e.doc) != own[r].end();
        const uint64_t* component = results[r].removals.find(e.doc);
        if (mine && !e.survivor) {
          ++removed_here;
          ASSERT_NE(component, nullptr);
          EXPECT_EQ(*component, e.component);
        }
      }
      EXPECT_EQ(results[r].removals.size(), removed_here) << "rank " << r << " of " << ranks;
      EXPECT_EQ(results[r].removed, table->removed());
      EXPECT_EQ(results[r].members, table->entries.size());
    }
  }
}

TEST(BucketShuffle, ATinyBudgetSpillsAndExchangesInManyRounds) {
  const std::vector<Doc> docs = random_docs(20000, 5);
  ClustererOptions options;
  options.memory_bytes = 256 << 10;  // every spill spills; 64 KB blocks: many rounds
  options.partitions = 8;
  const std::string expected = one_process(docs, options);
  std::vector<ClusterStats> stats;
  // All documents on rank 0 but one each on the others: one rank sends nearly everything.
  auto tables = across_ranks(
      docs, options, 3, [](size_t i) { return i % 1000 == 1 ? 1 : i % 1000 == 2 ? 2 : 0; },
      &stats);
  for (const std::string& table : tables) EXPECT_EQ(table, expected);
  EXPECT_GT(stats[0].shuffle_rounds, 3u);
  EXPECT_GT(stats[0].spill.spilled_bytes, 0u);
  ASSERT_EQ(stats[0].shuffle_bytes_by_rank.size(), 3u);
  // Rank 0 holds nearly every record and owns about a third of the buckets.
  EXPECT_GT(stats[0].shuffle_bytes_by_rank[0], 20000u * 4 * sizeof(BucketRecord) / 2);
  EXPECT_LT(stats[0].shuffle_bytes_by_rank[1], 100u * 4 * sizeof(BucketRecord));
  EXPECT_EQ(stats[1].documents, 20000u);  // summed over the ranks, the same on each
}

TEST(BucketShuffle, ADamagedSpillFileOnOneRankFailsEveryRankNamingIt) {
  const std::vector<Doc> docs = random_docs(4000, 3);
  testing::TempDir dir;
  testing::ThreadComms comms(2);
  std::vector<std::string> errors(2);
  comms.run([&](dist::Comm& comm) {
    ClustererOptions options;
    options.memory_bytes = 64 << 10;
    options.spill_dir = dir.file("rank-" + std::to_string(comm.rank()));
    options.comm = &comm;
    DuplicateClusterer clusterer(options);
    std::vector<const Doc*> own;
    for (size_t i = 0; i < docs.size(); ++i) {
      if (static_cast<int>(i % 2) == comm.rank()) own.push_back(&docs[i]);
    }
    add_docs(clusterer, own);
    if (comm.rank() == 1) {
      ASSERT_TRUE(clusterer.flush_for_test().is_ok());
      std::vector<std::string> files = clusterer.spill_files();
      ASSERT_FALSE(files.empty());
      std::fstream f(files[0], std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(40);
      f.put('\x5a');
    }
    auto table = finish_table(clusterer, dir.file("table.jsonl"));
    errors[static_cast<size_t>(comm.rank())] = table.is_ok() ? "" : table.status().message();
  });
  for (const std::string& error : errors) {
    EXPECT_THAT(error, HasSubstr("rank 1: "));
    EXPECT_THAT(error, HasSubstr(".spill"));
  }
}

TEST(BucketShuffle, OwnersSpreadOverRanks) {
  std::vector<int> count(4, 0);
  for (uint64_t h = 0; h < 40000; ++h) ++count[static_cast<size_t>(bucket_owner(h * 0x9E3779B97F4A7C15ull, 4))];
  for (int c : count) EXPECT_NEAR(c, 10000, 600);
}

}  // namespace
}  // namespace winnow
