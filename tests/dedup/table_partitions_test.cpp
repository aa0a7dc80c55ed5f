// The table written as partitions across ranks and joined by rank 0 is, byte for byte, the
// table one process writes (DuplicatesTable::write), in both forms, for any rank count and
// partition count; and it reads back.
#include "dedup/table_partitions.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "dist/thread_comm.h"
#include "test_support.h"

namespace winnow {
namespace {

DuplicatesTable random_table(unsigned seed) {
  std::mt19937_64 rng(seed);
  DuplicatesTable table;
  for (int g = 0; g < 300; ++g) {
    const uint64_t group = (rng() % 8) << 40 | (rng() % 100000);
    const int size = 2 + static_cast<int>(rng() % 4);
    for (int m = 0; m < size; ++m) {
      DuplicateEntry e;
      e.doc = group + static_cast<uint64_t>(m) * 3;
      e.component = group;
      e.survivor = m == 1;
      e.id = "id \"" + std::to_string(e.doc) + "\"";
      table.entries.push_back(e);
    }
  }
  table.sort();
  // Groups made twice by the random draw would merge: keep one row per document.
  table.entries.erase(std::unique(table.entries.begin(), table.entries.end(),
                                  [](const auto& a, const auto& b) { return a.doc == b.doc; }),
                      table.entries.end());
  return table;
}

TEST(TablePartitions, JoinedPartitionsAreTheOneProcessTable) {
  const DuplicatesTable table = random_table(5);
  std::map<uint64_t, uint64_t> sizes;
  for (const auto& e : table.entries) ++sizes[e.component];
  for (TableFormat format : {TableFormat::kJsonl, TableFormat::kBinary}) {
    testing::TempDir dir;
    ASSERT_TRUE(table.write(dir.file("expected"), format).is_ok());
    const std::string expected = testing::read_file(dir.file("expected"));
    for (int ranks : {1, 2, 5}) {
      for (uint32_t partitions : {1u, 4u, 64u}) {
        testing::ThreadComms comms(ranks);
        const std::string path = dir.file("joined-" + std::to_string(ranks));
        comms.run([&](dist::Comm& comm) {
          std::vector<TableRow> rows;  // rows dealt out by a scramble of their position
          for (size_t i = 0; i < table.entries.size(); ++i) {
            if (static_cast<int>((i * 7919) % static_cast<size_t>(ranks)) == comm.rank()) {
              rows.push_back({table.entries[i], sizes[table.entries[i].component]});
            }
          }
          Status s = write_table_partitions(comm, rows, partitions, path, format);
          EXPECT_TRUE(s.is_ok()) << s.message();
        });
        EXPECT_EQ(testing::read_file(path), expected)
            << ranks << " ranks, " << partitions << " partitions";
        EXPECT_FALSE(std::filesystem::exists(path + ".part-00000"));
        auto back = DuplicatesTable::read(path);
        ASSERT_TRUE(back.is_ok());
        EXPECT_EQ(back->entries.size(), table.entries.size());
      }
    }
  }
}

}  // namespace
}  // namespace winnow
