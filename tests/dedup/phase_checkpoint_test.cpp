#include "dedup/phase_checkpoint.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

const std::vector<std::string> kPhases = {"links", "labels", "survivors"};

PhaseCheckpoint open_or_die(const std::string& dir, uint64_t fingerprint) {
  auto store = PhaseCheckpoint::open(dir, fingerprint);
  EXPECT_TRUE(store.is_ok()) << store.status().message();
  return std::move(*store);
}

TEST(PhaseCheckpoint, SavedPhasesAreFoundByALaterOpen) {
  TempDir dir;
  {
    PhaseCheckpoint store = open_or_die(dir.path(), 7);
    ASSERT_TRUE(store.save("links", 3, "edges of 3").is_ok());
    ASSERT_TRUE(store.save("labels", 3, std::string("\0labels\0", 8)).is_ok());
    ASSERT_TRUE(store.save("links", 4, "").is_ok());
  }
  PhaseCheckpoint again = open_or_die(dir.path(), 7);  // as a rerun would, on any rank
  EXPECT_EQ(again.load("links", 3), std::optional<std::string>("edges of 3"));
  EXPECT_EQ(again.load("labels", 3), std::optional<std::string>(std::string("\0labels\0", 8)));
  EXPECT_EQ(again.last_finished(kPhases, 3), 1);
  EXPECT_EQ(again.last_finished(kPhases, 4), 0);  // an empty result still counts as finished
  EXPECT_EQ(again.last_finished(kPhases, 5), -1);
  EXPECT_EQ(again.damaged(), 0u);
}

TEST(PhaseCheckpoint, ALaterPhaseWithoutAnEarlierOneIsNotResumedFrom) {
  TempDir dir;
  PhaseCheckpoint store = open_or_die(dir.path(), 7);
  ASSERT_TRUE(store.save("labels", 0, "x").is_ok());
  EXPECT_EQ(store.last_finished(kPhases, 0), -1);
}

TEST(PhaseCheckpoint, AChangedFingerprintInvalidatesEveryCheckpoint) {
  TempDir dir;
  {
    PhaseCheckpoint store = open_or_die(dir.path(), checkpoint_fingerprint({"bands=20", "a.jsonl"}));
    ASSERT_TRUE(store.save("links", 0, "old").is_ok());
  }
  const uint64_t changed = checkpoint_fingerprint({"bands=21", "a.jsonl"});
  PhaseCheckpoint store = open_or_die(dir.path(), changed);
  EXPECT_FALSE(store.load("links", 0).has_value());
  EXPECT_FALSE(fs::exists(store.path_of("links", 0)));
}

TEST(PhaseCheckpoint, FingerprintSeparatesParts) {
  EXPECT_NE(checkpoint_fingerprint({"ab", "c"}), checkpoint_fingerprint({"a", "bc"}));
  EXPECT_EQ(checkpoint_fingerprint({"ab", "c"}), checkpoint_fingerprint({"ab", "c"}));
}

void flip_byte(const std::string& path, std::streamoff at) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(at);
  char c = 0;
  f.get(c);
  f.seekp(at);
  f.put(static_cast<char>(c ^ 0x20));
}

TEST(PhaseCheckpoint, ACorruptedCheckpointIsRemovedAndReportedMissing) {
  TempDir dir;
  PhaseCheckpoint store = open_or_die(dir.path(), 7);
  ASSERT_TRUE(store.save("links", 1, "some edges to keep").is_ok());
  const std::string path = store.path_of("links", 1);
  flip_byte(path, static_cast<std::streamoff>(fs::file_size(path) - 3));
  EXPECT_FALSE(store.load("links", 1).has_value());
  EXPECT_EQ(store.damaged(), 1u);
  EXPECT_FALSE(fs::exists(path));
  ASSERT_TRUE(store.save("links", 1, "recomputed").is_ok());
  EXPECT_EQ(store.load("links", 1), std::optional<std::string>("recomputed"));
}

TEST(PhaseCheckpoint, ATruncatedOrMisplacedCheckpointIsNotTrusted) {
  TempDir dir;
  PhaseCheckpoint store = open_or_die(dir.path(), 7);
  ASSERT_TRUE(store.save("links", 1, "some edges to keep").is_ok());
  fs::resize_file(store.path_of("links", 1), fs::file_size(store.path_of("links", 1)) - 1);
  EXPECT_FALSE(store.load("links", 1).has_value());
  // A whole, valid file copied under another partition's name names its own partition.
  ASSERT_TRUE(store.save("links", 2, "partition 2").is_ok());
  fs::copy_file(store.path_of("links", 2), store.path_of("links", 9));
  EXPECT_FALSE(store.load("links", 9).has_value());
  EXPECT_EQ(store.damaged(), 2u);
}

TEST(PhaseCheckpoint, ALeftoverTemporaryIsNotAFinishedPhase) {
  TempDir dir;
  PhaseCheckpoint store = open_or_die(dir.path(), 7);
  ASSERT_TRUE(store.save("links", 1, "x").is_ok());
  fs::rename(store.path_of("links", 1), store.path_of("links", 1) + ".tmp123");
  EXPECT_EQ(store.last_finished(kPhases, 1), -1);
}

}  // namespace
}  // namespace winnow
