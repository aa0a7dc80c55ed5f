// End to end: `embed` through the winnow binary writes each kept document's vector as a JSON
// array field, the same whatever the thread count.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>

#include "test_support.h"

namespace winnow::testing {
namespace {

TEST(EmbedIntegration, HashedVectorsAreWrittenAsJsonArrays) {
  TempDir dir;
  std::string input;
  for (int i = 0; i < 300; ++i) {
    input += "{\"id\":" + std::to_string(i) + ",\"text\":\"document number " +
             std::to_string(i % 37) + " about " + (i % 2 ? "cats" : "ships") + "\"}\n";
  }
  write_file(dir.file("in.jsonl"), input);
  std::string pipeline = pipeline_file(dir, R"(stages:
  - stage: embed
    dimensions: 16
    field: vec
)");
  std::string out;
  for (const char* threads : {"1", "2"}) {
    ASSERT_EQ(winnow("run " + pipeline + " -i " + dir.file("in.jsonl") + " -o " +
                         dir.file(std::string("out") + threads) + " -t " + threads,
                     &out),
              0)
        << out;
  }
  std::string one = read_decompressed(dir.file("out1/in.jsonl.zst"));
  EXPECT_EQ(one, read_decompressed(dir.file("out2/in.jsonl.zst")));
  EXPECT_EQ(stats_total(dir.file("out1/stats.json"), "kept"), 300u);
  simdjson::dom::parser parser;
  size_t lines = 0;
  for (const std::string& line : split_lines(one)) {
    if (line.empty()) continue;
    ++lines;
    simdjson::dom::array vec = parser.parse(line)["vec"].get_array();
    double norm = 0;
    size_t n = 0;
    for (double v : vec) {
      norm += v * v;
      ++n;
    }
    EXPECT_EQ(n, 16u);
    EXPECT_NEAR(norm, 1.0, 1e-5);
  }
  EXPECT_EQ(lines, 300u);
}

}  // namespace
}  // namespace winnow::testing
