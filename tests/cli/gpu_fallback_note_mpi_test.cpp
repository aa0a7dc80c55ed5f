// The "no usable GPU" line under mpirun: the job says it once (rank 0 speaks for the job, as
// for its summary and errors), not once per rank. `--gpus 0` makes fuzzy_dedup fall back on any
// machine; a winnow built without CUDA has nothing to fall back from and says nothing (skip).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "dist/mpi_launch.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(GpuFallbackNote, SaidOncePerJobNotOncePerRank) {
  if (!kMpiAvailable) GTEST_SKIP() << "winnow was built without MPI";
  TempDir dir;
  std::filesystem::create_directories(dir.file("in"));
  // Three shards, so each of three ranks has one to read.
  for (int s = 0; s < 3; ++s) {
    write_file(dir.file("in/s" + std::to_string(s) + ".jsonl"),
               "{\"text\":\"a few words in shard " + std::to_string(s) + " for minhash\"}\n");
  }
  const std::string pipeline = pipeline_file(dir, "stages:\n  - {stage: fuzzy_dedup}\n");
  const std::string args =
      " run " + pipeline + " -i " + dir.file("in") + " --no-progress -q -t 1 --gpus 0 -o ";
  const std::string kLine = "no usable GPU";
  std::string alone;
  ASSERT_EQ(run_command(kWinnow + args + dir.file("alone") + " 2>&1", &alone), 0) << alone;
  if (count_of(alone, kLine) == 0) GTEST_SKIP() << "winnow was built without CUDA";
  ASSERT_EQ(count_of(alone, kLine), 1u) << alone;
  std::string job;
  ASSERT_EQ(run_command(mpirun(3) + " " + kWinnow + args + dir.file("job") + " 2>&1", &job), 0)
      << job;
  EXPECT_EQ(count_of(job, kLine), 1u) << job;
}

}  // namespace
}  // namespace winnow::testing
