// prune_streamed (a cluster's ranked rows in a tile file, streamed a row block at a time past
// groups of column blocks) against prune_cluster in memory: bit-identical maxima, matches and
// removals for any group size (memory budget), thread count and mode; tile files verified on
// every read (a flipped byte, a truncated file → an error naming the file).
#include "dedup/streamed_pruner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "dedup/planted_rows.h"
#include "dedup/tile_file.h"
#include "test_support.h"

namespace winnow {
namespace {

// Unit rows with planted near-copies (planted_rows.h).
std::vector<float> planted_rows(size_t n, size_t d, unsigned seed) {
  return planted_unit_rows(n, d, seed, 0.01f, 10);
}

TileFile write_tiles(const std::string& path, const std::vector<float>& x, size_t d,
                     size_t tile_rows) {
  TileFileWriter writer;
  EXPECT_TRUE(writer.open(path, d, tile_rows).is_ok());
  for (size_t i = 0; i < x.size() / d; ++i) EXPECT_TRUE(writer.add_row(x.data() + i * d).is_ok());
  auto file = writer.close();
  EXPECT_TRUE(file.is_ok());
  return *file;
}

bool same_bits(const PruneResult& a, const PruneResult& b) {
  return a.max_similarity.size() == b.max_similarity.size() &&
         std::memcmp(a.max_similarity.data(), b.max_similarity.data(),
                     a.max_similarity.size() * sizeof(float)) == 0 &&
         a.matched == b.matched && a.removed == b.removed;
}

TEST(StreamedPruner, BitIdenticalToInMemoryForAnyGroupAndThreads) {
  const size_t d = 24;
  for (size_t n : {1u, 50u, 333u}) {
    auto x = planted_rows(n, d, static_cast<unsigned>(n) + 7);
    for (size_t block : {16u, 64u}) {
      testing::TempDir dir;
      TileFile file = write_tiles(dir.file("rows.spill"), x, d, block);
      ASSERT_EQ(file.rows, n);
      for (bool keep_one : {false, true}) {
        PruneOptions options;
        options.block = block;
        options.keep_one_per_group = keep_one;
        options.thresholds = {0.99, 0.95, 0.9};
        const PruneResult expected = prune_cluster(x.data(), n, d, options);
        // Budgets of one column block per group, a few, and the whole cluster.
        for (size_t memory :
             {size_t{1}, size_t{3} * block * d * 4 + 2 * block * block * 4 * 4, size_t{1} << 30}) {
          for (int threads : {1, 2}) {
            options.threads = threads;
            auto streamed = prune_streamed(file, options, memory);
            ASSERT_TRUE(streamed.is_ok()) << streamed.status().message();
            EXPECT_TRUE(same_bits(*streamed, expected))
                << "n " << n << " block " << block << " keep_one " << keep_one << " memory "
                << memory << " threads " << threads;
          }
        }
      }
    }
  }
}

TEST(StreamedPruner, GroupSizeFollowsTheBudget) {
  EXPECT_EQ(streamed_group_blocks(64, 32, 1, 0), 1u);
  const size_t tile = 64 * 32 * 4, products = 64 * 64 * 4;
  EXPECT_EQ(streamed_group_blocks(64, 32, 2, tile + 2 * products + 5 * tile), 5u);
}

TEST(StreamedPruner, DamagedTileFailsNamingTheFile) {
  const size_t d = 8, block = 16;
  auto x = planted_rows(100, d, 3);
  testing::TempDir dir;
  const std::string path = dir.file("rows.spill");
  TileFile file = write_tiles(path, x, d, block);
  std::string bytes = testing::read_file(path);
  bytes[file.offset_of(2) + kSpillBlockHeaderBytes + 5] ^= 0x04;  // inside tile 2's payload
  testing::write_file(path, bytes);
  PruneOptions options;
  options.block = block;
  options.thresholds = {0.95};
  auto streamed = prune_streamed(file, options, 1);
  ASSERT_FALSE(streamed.is_ok());
  EXPECT_NE(streamed.status().message().find(path), std::string::npos)
      << streamed.status().message();
  EXPECT_NE(streamed.status().message().find("checksum"), std::string::npos);

  testing::write_file(path, bytes.substr(0, bytes.size() - 3));  // truncated
  auto cut = prune_streamed(file, options, 1);
  ASSERT_FALSE(cut.is_ok());
  EXPECT_NE(cut.status().message().find(path), std::string::npos) << cut.status().message();
}

TEST(TileFile, ReadsAnyTileBackInAnyOrder) {
  const size_t d = 5, block = 4;
  auto x = planted_rows(10, d, 9);  // tiles of 4, 4, 2 rows
  testing::TempDir dir;
  TileFile file = write_tiles(dir.file("t.spill"), x, d, block);
  ASSERT_EQ(file.tiles(), 3u);
  TileReader reader;
  ASSERT_TRUE(reader.open(file).is_ok());
  std::vector<float> tile;
  for (size_t t : {2u, 0u, 1u, 2u}) {
    ASSERT_TRUE(reader.read(t, tile).is_ok());
    ASSERT_EQ(tile.size(), file.rows_of(t) * d);
    EXPECT_EQ(0, std::memcmp(tile.data(), x.data() + t * block * d, tile.size() * sizeof(float)));
  }
  EXPECT_FALSE(reader.read(3, tile).is_ok());
}

}  // namespace
}  // namespace winnow
