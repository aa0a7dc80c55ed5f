// examples/images.yaml under mpirun (the mpi label): on the image dedup corpus
// (scripts/make_image_dedup_corpus: real pictures with planted copies and distinct pictures
// that defeat pHash alone), the same output, byte for byte, from one process and from mpirun
// -np 2 and 3 (an even and an uneven split; tests/cli/mpi_run_mpi_test.cpp covers -np 1 to 4
// on the text examples): verification signatures travel to the ranks holding the links, star
// groups are formed where each component's label lives. Skipped when winnow was built without
// MPI.
#include <gtest/gtest.h>

#include <filesystem>

#include "dist/mpi_launch.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;

TEST(ImageDedupMpi, ImagesExampleIsTheSameOnAnyRankCount) {
  if (!testing::kMpiAvailable) GTEST_SKIP() << "winnow was built without MPI";
  testing::TempDir dir;
  std::string log;
  const std::string build = fs::path(testing::kWinnow).parent_path().string();
  ASSERT_EQ(testing::run_command("WINNOW_BUILD=" + build + " " + testing::kSource +
                                     "/scripts/make_image_dedup_corpus " + dir.file("corpus"),
                                 &log),
            0)
      << log;
  auto run_on = [&](int ranks, const std::string& out) {
    std::string printed;
    const std::string command = (ranks > 0 ? testing::mpirun(ranks) + " " : std::string()) +
                                testing::kWinnow + " run " + testing::kSource +
                                "/examples/images.yaml -i " + dir.file("corpus/shards") + " -o " +
                                out + " --no-progress -q " + (ranks > 0 ? "-t 1" : "-t 2");
    EXPECT_EQ(testing::run_command(command, &printed), 0) << printed;
  };
  run_on(0, dir.file("alone"));
  const auto expected = testing::read_output_tree(dir.file("alone"));
  ASSERT_TRUE(expected.count("global/image_dedup/duplicates.jsonl"));
  ASSERT_GT(expected.at("global/image_dedup/duplicates.jsonl").size(), 10000u);
  for (int ranks : {2, 3}) {
    const std::string out = dir.file("np" + std::to_string(ranks));
    run_on(ranks, out);
    EXPECT_TRUE(testing::read_output_tree(out) == expected) << ranks << " ranks";
  }
}

}  // namespace
}  // namespace winnow
