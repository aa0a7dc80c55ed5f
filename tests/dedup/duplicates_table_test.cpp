#include "dedup/duplicates_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_support.h"

namespace winnow {
namespace {

DuplicatesTable sample() {
  DuplicatesTable t;
  t.entries = {{5, 5, true, "a"},
               {9, 5, false, "b \"quoted\" é"},
               {7, 7, true, ""},
               {(uint64_t{3} << 40) + 2, 7, false, "c"}};
  t.sort();
  return t;
}

TEST(DuplicatesTable, RoundTripsInBothFormats) {
  testing::TempDir dir;
  DuplicatesTable t = sample();
  for (TableFormat f : {TableFormat::kJsonl, TableFormat::kBinary}) {
    std::string path = dir.file(f == TableFormat::kJsonl ? "t.jsonl" : "t.bin");
    ASSERT_TRUE(t.write(path, f).is_ok());
    auto back = DuplicatesTable::read(path);
    ASSERT_TRUE(back.is_ok()) << back.status().message();
    ASSERT_EQ(back->entries.size(), t.entries.size());
    for (size_t i = 0; i < t.entries.size(); ++i) {
      EXPECT_EQ(back->entries[i].doc, t.entries[i].doc);
      EXPECT_EQ(back->entries[i].component, t.entries[i].component);
      EXPECT_EQ(back->entries[i].survivor, t.entries[i].survivor);
      EXPECT_EQ(back->entries[i].id, t.entries[i].id);
    }
  }
  EXPECT_THAT(testing::read_file(dir.file("t.jsonl")),
              ::testing::HasSubstr("\"shard\":3,\"row\":2,\"id\":\"c\",\"component\":7,"
                                   "\"component_size\":2,\"survivor\":false"));
  EXPECT_EQ(t.removed(), 2u);
  EXPECT_EQ(t.component_sizes(), (std::map<uint64_t, uint64_t>{{2, 2}}));
}

TEST(DuplicatesTable, CorruptBinaryOrTruncatedJsonlIsAnError) {
  testing::TempDir dir;
  DuplicatesTable t = sample();
  ASSERT_TRUE(t.write(dir.file("t.bin"), TableFormat::kBinary).is_ok());
  std::string bytes = testing::read_file(dir.file("t.bin"));
  bytes[20] ^= 1;
  testing::write_file(dir.file("t.bin"), bytes);
  EXPECT_FALSE(DuplicatesTable::read(dir.file("t.bin")).is_ok());
  ASSERT_TRUE(t.write(dir.file("t.jsonl"), TableFormat::kJsonl).is_ok());
  std::string text = testing::read_file(dir.file("t.jsonl"));
  testing::write_file(dir.file("t.jsonl"), text.substr(0, text.size() - 10));
  EXPECT_FALSE(DuplicatesTable::read(dir.file("t.jsonl")).is_ok());
}

}  // namespace
}  // namespace winnow
