#include "io/input_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;
using testing::write_file;

std::vector<std::string> relative_paths(const std::vector<InputFile>& files, const TempDir& dir) {
  std::vector<std::string> out;
  for (const InputFile& f : files) {
    EXPECT_EQ(f.path.rfind(dir.path() + "/", 0), 0u) << f.path;
    out.push_back(f.path.substr(dir.path().size() + 1));
  }
  return out;
}

std::vector<InputFile> discover_ok(const std::vector<std::string>& patterns) {
  auto result = discover_inputs(patterns);
  EXPECT_TRUE(result.is_ok()) << result.status().message();
  if (!result.is_ok()) return {};
  return std::move(result).value();
}

void touch(const TempDir& dir, const std::string& rel, std::string_view content = "x") {
  fs::create_directories(fs::path(dir.file(rel)).parent_path());
  write_file(dir.file(rel), content);
}

TEST(InputFiles, WalksDirectoriesWithTheNameRules) {
  TempDir dir;
  for (const char* name :
       {"a.jsonl", "b.jsonl.gz", "c.jsonl.zst", "d.json", "e.gz", "f.zst", "g.jsonl.bak",
        "sub/h.jsonl", "sub/deeper/i.jsonl.zst",
        // Skipped by name:
        "notes.txt", "README.md", "data.json.txt", ".hidden.jsonl", "_marker.jsonl",
        ".part.jsonl.tmp-123", "_SUCCESS", "sub/.x.jsonl", "sub/_y.jsonl",
        // Skipped because a folder on the way is hidden or private:
        ".cache/j.jsonl", "_tmp/k.jsonl", "sub/_logs/l.jsonl", "sub/.git/m.jsonl"}) {
    touch(dir, name);
  }
  auto files = discover_ok({dir.path()});
  EXPECT_THAT(relative_paths(files, dir),
              ElementsAre("a.jsonl", "b.jsonl.gz", "c.jsonl.zst", "d.json", "e.gz", "f.zst",
                          "g.jsonl.bak", "sub/deeper/i.jsonl.zst", "sub/h.jsonl"));
}

TEST(InputFiles, AnEarlierRunsOutputFolderGivesItsKeptShardsOnly) {
  TempDir dir;
  for (const char* name :
       {"run1/a.jsonl.zst", "run1/b-p00001.jsonl.zst", "run1/_done/a.json", "run1/stats.json",
        "run1/metrics.jsonl", "run1/report.html", "run1/rejected/a.jsonl.zst",
        "run1/errors/a.jsonl", "run1/global/fuzzy_dedup/duplicates.jsonl",
        // Without _done/ the same names are ordinary user data.
        "mine/stats.json", "mine/metrics.jsonl", "mine/rejected/r.jsonl", "mine/errors/e.jsonl"}) {
    touch(dir, name);
  }
  EXPECT_THAT(relative_paths(discover_ok({dir.file("run1")}), dir),
              ElementsAre("run1/a.jsonl.zst", "run1/b-p00001.jsonl.zst"));
  EXPECT_THAT(relative_paths(discover_ok({dir.file("mine")}), dir),
              ElementsAre("mine/errors/e.jsonl", "mine/metrics.jsonl", "mine/rejected/r.jsonl",
                          "mine/stats.json"));
  // Named explicitly, a bookkeeping file is still read: the user asked for it.
  EXPECT_THAT(relative_paths(discover_ok({dir.file("run1/rejected/a.jsonl.zst")}), dir),
              ElementsAre("run1/rejected/a.jsonl.zst"));
}

// A glob stands for the paths it matches, but over an earlier run's output folder it does
// not pick its bookkeeping (metrics.jsonl matched `*.jsonl`, and `*` matched _done/,
// rejected/, errors/, stats.json and report.html).
TEST(InputFiles, GlobsOverAnOutputFolderSkipItsBookkeeping) {
  TempDir dir;
  for (const char* name :
       {"run1/a.jsonl", "run1/b.jsonl", "run1/_done/a.json", "run1/stats.json",
        "run1/metrics.jsonl", "run1/report.html", "run1/rejected/a.jsonl", "run1/errors/a.jsonl",
        "run1/global/exact_dedup/duplicates.jsonl", "run1/_work/a.jsonl.zst", "mine/metrics.jsonl",
        "mine/a.jsonl"}) {
    touch(dir, name);
  }
  for (const char* pattern : {"/run1/*.jsonl", "/run1/*", "/run1/*.json*", "/run1/[a-z]*"}) {
    SCOPED_TRACE(pattern);
    EXPECT_THAT(relative_paths(discover_ok({dir.path() + pattern}), dir),
                ElementsAre("run1/a.jsonl", "run1/b.jsonl"));
  }
  // Its folders only: nothing to read there.
  EXPECT_TRUE(discover_ok({dir.path() + "/run1/*/"}).empty());
  // Without _done/ a metrics.jsonl is data like any other.
  EXPECT_THAT(relative_paths(discover_ok({dir.path() + "/mine/*.jsonl"}), dir),
              ElementsAre("mine/a.jsonl", "mine/metrics.jsonl"));
}

// Links, one rule: named ones are followed; inside folders they are followed only with
// follow_links, and every link not taken is reported with its reason.
class InputLinks : public ::testing::Test {
 protected:
  void SetUp() override {
    touch(dir_, "in/a.jsonl");
    touch(dir_, "elsewhere/secret.jsonl");
    touch(dir_, "elsewhere/folder/b.jsonl");
    fs::create_symlink(dir_.file("elsewhere/secret.jsonl"), dir_.file("in/secret.jsonl"));
    fs::create_symlink("/etc/passwd", dir_.file("in/passwd.jsonl"));
    fs::create_directory_symlink(dir_.file("elsewhere/folder"), dir_.file("in/linked"));
    fs::create_symlink(dir_.file("nowhere.jsonl"), dir_.file("in/dangling.jsonl"));
    fs::create_symlink(dir_.file("nowhere.txt"), dir_.file("in/dangling.txt"));  // not wanted
    fs::create_symlink("/etc/hostname", dir_.file("in/hostname"));  // not wanted either
  }
  std::vector<std::pair<std::string, std::string>> skipped(const DiscoveredInputs& found) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const SkippedInput& s : found.skipped) {
      out.emplace_back(s.path.substr(dir_.path().size() + 1),
                       std::string(skipped_reason_name(s.reason)));
    }
    return out;
  }
  TempDir dir_;
};

TEST_F(InputLinks, InsideFoldersLinksAreNotFollowedByDefaultAndAreReported) {
  auto found = discover_input_set({dir_.file("in")});
  ASSERT_TRUE(found.is_ok()) << found.status().message();
  EXPECT_THAT(relative_paths(found->files, dir_), ElementsAre("in/a.jsonl"));
  using P = std::pair<std::string, std::string>;
  EXPECT_THAT(skipped(*found), ElementsAre(P{"in/dangling.jsonl", "dangling_link"},
                                           P{"in/linked", "link_not_followed"},
                                           P{"in/passwd.jsonl", "link_not_followed"},
                                           P{"in/secret.jsonl", "link_not_followed"}));
  // The old call still works and gives the files.
  EXPECT_THAT(relative_paths(discover_ok({dir_.file("in")}), dir_), ElementsAre("in/a.jsonl"));
}

TEST_F(InputLinks, FollowLinksTakesLinkedFilesAndFolders) {
  auto found = discover_input_set({dir_.file("in")}, {InputFiles::kRecords, true});
  ASSERT_TRUE(found.is_ok()) << found.status().message();
  std::vector<std::string> paths;
  for (const InputFile& f : found->files) paths.push_back(f.path);
  EXPECT_THAT(paths, ElementsAre(dir_.file("in/a.jsonl"), dir_.file("in/linked/b.jsonl"),
                                 dir_.file("in/passwd.jsonl"), dir_.file("in/secret.jsonl")));
  using P = std::pair<std::string, std::string>;
  EXPECT_THAT(skipped(*found), ElementsAre(P{"in/dangling.jsonl", "dangling_link"}));
}

TEST_F(InputLinks, LinkedFolderCyclesAreWalkedOnce) {
  touch(dir_, "loop/x.jsonl");
  fs::create_directory_symlink(dir_.file("loop"), dir_.file("loop/again"));
  fs::create_directory_symlink(dir_.file("loop"), dir_.file("loop/same"));
  auto found = discover_input_set({dir_.file("loop")}, {InputFiles::kRecords, true});
  ASSERT_TRUE(found.is_ok()) << found.status().message();
  EXPECT_THAT(relative_paths(found->files, dir_), ElementsAre("loop/x.jsonl"));
  using P = std::pair<std::string, std::string>;
  EXPECT_THAT(skipped(*found),
              ElementsAre(P{"loop/again", "link_cycle"}, P{"loop/same", "link_cycle"}));
}

TEST_F(InputLinks, NamedLinksAreFollowedAndADanglingOneIsAnError) {
  EXPECT_THAT(relative_paths(discover_ok({dir_.file("in/secret.jsonl"), dir_.file("in/linked")}),
                             dir_),
              ElementsAre("in/linked/b.jsonl", "in/secret.jsonl"));
  auto result = discover_inputs({dir_.file("in/a.jsonl"), dir_.file("in/dangling.jsonl")});
  ASSERT_FALSE(result.is_ok());
  EXPECT_THAT(result.status().message(),
              HasSubstr("input path '" + dir_.file("in/dangling.jsonl") +
                        "' is a dangling symbolic link (to '" + dir_.file("nowhere.jsonl") +
                        "')"));
  // A glob stands for what it matches: a dangling link it matches is named.
  EXPECT_FALSE(discover_inputs({dir_.file("in/dang*.jsonl")}).is_ok());
}

TEST(InputFiles, UnreadableNamedFileIsAnError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every file";
  TempDir dir;
  touch(dir, "locked.jsonl");
  fs::permissions(dir.file("locked.jsonl"), fs::perms::none);
  auto result = discover_inputs({dir.file("locked.jsonl")});
  ASSERT_FALSE(result.is_ok());
  EXPECT_THAT(result.status().message(), HasSubstr("cannot be read"));
}

TEST(InputFiles, ReportsSizesOnDisk) {
  TempDir dir;
  touch(dir, "one.jsonl", std::string(1234, 'a'));
  touch(dir, "two.jsonl", "");
  auto files = discover_ok({dir.path()});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].size, 1234u);
  EXPECT_EQ(files[1].size, 0u);
  auto named = discover_ok({dir.file("one.jsonl")});
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].size, 1234u);
}

TEST(InputFiles, SortedBytewiseAcrossPatterns) {
  TempDir dir;
  for (const char* name :
       {"b.jsonl", "B.jsonl", "a10.jsonl", "a2.jsonl", "a-1.jsonl", "z/a.jsonl"}) {
    touch(dir, name);
  }
  auto files = discover_ok({dir.file("z"), dir.file("b.jsonl"), dir.path()});
  EXPECT_THAT(relative_paths(files, dir),
              ElementsAre("B.jsonl", "a-1.jsonl", "a10.jsonl", "a2.jsonl", "b.jsonl", "z/a.jsonl"));
}

TEST(InputFiles, DuplicatesAreRemoved) {
  TempDir dir;
  touch(dir, "a.jsonl");
  touch(dir, "b.jsonl");
  auto files = discover_ok({dir.file("a.jsonl"), dir.path(), dir.file("a.jsonl"),
                            dir.path() + "/*.jsonl", dir.path() + "/b.*"});
  EXPECT_THAT(relative_paths(files, dir), ElementsAre("a.jsonl", "b.jsonl"));
}

TEST(InputFiles, GlobsSelectFiles) {
  TempDir dir;
  for (const char* name :
       {"part-0.jsonl", "part-1.jsonl.zst", "part-2.jsonl", "other.jsonl", "x/part-9.jsonl"}) {
    touch(dir, name);
  }
  EXPECT_THAT(relative_paths(discover_ok({dir.path() + "/part-*"}), dir),
              ElementsAre("part-0.jsonl", "part-1.jsonl.zst", "part-2.jsonl"));
  EXPECT_THAT(relative_paths(discover_ok({dir.path() + "/part-[02].jsonl"}), dir),
              ElementsAre("part-0.jsonl", "part-2.jsonl"));
  EXPECT_THAT(relative_paths(discover_ok({dir.path() + "/*/part-?.jsonl"}), dir),
              ElementsAre("x/part-9.jsonl"));
  // Braces expand, but only in a pattern that also has a wildcard: "{a,b}.jsonl" alone is
  // taken as a literal path.
  EXPECT_THAT(relative_paths(discover_ok({dir.path() + "/{other,part-0}.json?"}), dir),
              ElementsAre("other.jsonl", "part-0.jsonl"));
}

TEST(InputFiles, GlobMatchingADirectoryWalksIt) {
  TempDir dir;
  touch(dir, "in-1/a.jsonl");
  touch(dir, "in-2/b.jsonl.gz");
  touch(dir, "in-2/skip.txt");
  EXPECT_THAT(relative_paths(discover_ok({dir.path() + "/in-*"}), dir),
              ElementsAre("in-1/a.jsonl", "in-2/b.jsonl.gz"));
}

TEST(InputFiles, NamedFilesAreTakenWhateverTheirName) {
  TempDir dir;
  touch(dir, "notes.txt");
  touch(dir, ".hidden");
  touch(dir, "_private");
  EXPECT_THAT(
      relative_paths(
          discover_ok({dir.file("notes.txt"), dir.file(".hidden"), dir.file("_private")}), dir),
      ElementsAre(".hidden", "_private", "notes.txt"));
}

TEST(InputFiles, NamedDirectoryCalledJsonlIsTakenAsAFile) {
  // Taken as named, so that reading it fails with a clear error instead of it being walked.
  TempDir dir;
  touch(dir, "out.jsonl/part-0.jsonl");
  auto files = discover_ok({dir.file("out.jsonl")});
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, dir.file("out.jsonl"));
  EXPECT_EQ(files[0].size, 0u);
}

TEST(InputFiles, MissingPathIsAnErrorNamingIt) {
  TempDir dir;
  touch(dir, "a.jsonl");
  std::string missing = dir.file("missing.jsonl");
  auto result = discover_inputs({dir.file("a.jsonl"), missing});
  ASSERT_FALSE(result.is_ok());
  EXPECT_THAT(result.status().message(), HasSubstr(missing));
}

TEST(InputFiles, GlobMatchingNothingIsAnErrorNamingIt) {
  TempDir dir;
  touch(dir, "a.jsonl");
  std::string pattern = dir.path() + "/*.parquet";
  auto result = discover_inputs({dir.path(), pattern});
  ASSERT_FALSE(result.is_ok());
  EXPECT_THAT(result.status().message(), HasSubstr(pattern));
}

TEST(InputFiles, EmptyDirectoryIsAnErrorNamingIt) {
  TempDir dir;
  fs::create_directories(dir.file("empty"));
  auto result = discover_inputs({dir.file("empty")});
  ASSERT_FALSE(result.is_ok());
  EXPECT_THAT(result.status().message(), HasSubstr(dir.file("empty")));
}

TEST(InputFiles, DirectoryWithoutInputsIsAnError) {
  TempDir dir;
  touch(dir, "only/notes.txt");
  touch(dir, "only/_SUCCESS");
  touch(dir, "only/.hidden.jsonl");
  auto result = discover_inputs({dir.file("only")});
  ASSERT_FALSE(result.is_ok());
  EXPECT_THAT(result.status().message(), HasSubstr(dir.file("only")));
}

TEST(InputFiles, NoPatternsIsAnError) {
  auto result = discover_inputs({});
  EXPECT_FALSE(result.is_ok());
  EXPECT_FALSE(result.status().message().empty());
}

TEST(InputFiles, ShardStem) {
  EXPECT_EQ(shard_stem("/data/in/part-00001.jsonl.zst"), "part-00001");
  EXPECT_EQ(shard_stem("part.jsonl.gz"), "part");
  EXPECT_EQ(shard_stem("a/b/c.jsonl"), "c");
  EXPECT_EQ(shard_stem("x.json"), "x");
  EXPECT_EQ(shard_stem("x.json.gz"), "x");
  EXPECT_EQ(shard_stem("x.gz"), "x");
  EXPECT_EQ(shard_stem("x.zst"), "x");
  EXPECT_EQ(shard_stem("cc.warc.gz"), "cc.warc");
  EXPECT_EQ(shard_stem("a.b.jsonl"), "a.b");
  EXPECT_EQ(shard_stem("images-0001.tar"), "images-0001");
  EXPECT_EQ(shard_stem("images-0001.tar.gz"), "images-0001");
  EXPECT_EQ(shard_stem("noext"), "noext");
  EXPECT_EQ(shard_stem("dir.d/file"), "file");
  // A name that is only a suffix keeps it rather than becoming empty.
  EXPECT_FALSE(shard_stem(".jsonl").empty());
  EXPECT_FALSE(shard_stem("dir/.gz").empty());
}

}  // namespace
}  // namespace winnow
