#include "pipeline/output_layout.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow {
namespace {

namespace fs = std::filesystem;

std::vector<InputFile> inputs(const std::vector<std::string>& paths) {
  std::vector<InputFile> files;
  for (const auto& path : paths) files.push_back({path, 100});
  return files;
}

OutputFormat jsonl(Compression compression) {
  OutputFormat format;
  format.compression = compression;
  return format;
}

TEST(OutputLayout, NamesComeFromStems) {
  OutputLayout layout("/out", inputs({"/data/a.jsonl.zst", "/data/sub/b.jsonl", "c.json.gz"}),
                      jsonl(Compression::kZstd));
  EXPECT_EQ(layout.dir(), "/out");
  EXPECT_EQ(layout.shard(0).kept, "/out/a.jsonl.zst");
  EXPECT_EQ(layout.shard(0).rejected, "/out/rejected/a.jsonl.zst");
  EXPECT_EQ(layout.shard(0).errors, "/out/errors/a.jsonl");
  EXPECT_EQ(layout.shard(0).marker, "/out/_done/a.json");
  EXPECT_EQ(layout.shard(1).kept, "/out/b.jsonl.zst");
  EXPECT_EQ(layout.shard(1).marker, "/out/_done/b.json");
  EXPECT_EQ(layout.shard(2).kept, "/out/c.jsonl.zst");
  EXPECT_EQ(layout.stats_path(), "/out/stats.json");
  EXPECT_EQ(layout.done_dir(), "/out/_done");
}

TEST(OutputLayout, ExtensionFollowsTheFormat) {
  auto in = inputs({"/data/a.jsonl.zst"});
  OutputLayout plain("/o", in, jsonl(Compression::kNone));
  EXPECT_EQ(plain.shard(0).kept, "/o/a.jsonl");
  EXPECT_EQ(plain.shard(0).rejected, "/o/rejected/a.jsonl");
  OutputLayout gzip("/o", in, jsonl(Compression::kGzip));
  EXPECT_EQ(gzip.shard(0).kept, "/o/a.jsonl.gz");
  EXPECT_EQ(gzip.shard(0).rejected, "/o/rejected/a.jsonl.gz");
  EXPECT_EQ(gzip.shard(0).errors, "/o/errors/a.jsonl");  // errors are never compressed
  OutputLayout parquet("/o", inputs({"/data/a.parquet"}), *OutputFormat().with_name("parquet"));
  EXPECT_EQ(parquet.shard(0).kept, "/o/a.parquet");
  EXPECT_EQ(parquet.shard(0).rejected, "/o/rejected/a.parquet");
  EXPECT_EQ(parquet.shard(0).errors, "/o/errors/a.jsonl");  // errors stay JSON Lines
}

TEST(OutputLayout, CollidingStemsGetTheirIndexPrefixed) {
  OutputLayout layout(
      "/out", inputs({"/x/part.jsonl", "/x/unique.jsonl", "/y/part.jsonl.gz", "/z/part.json"}),
      jsonl(Compression::kNone));
  EXPECT_EQ(layout.shard(0).kept, "/out/00000-part.jsonl");
  EXPECT_EQ(layout.shard(0).marker, "/out/_done/00000-part.json");
  EXPECT_EQ(layout.shard(1).kept, "/out/unique.jsonl");  // no collision: no prefix
  EXPECT_EQ(layout.shard(2).kept, "/out/00002-part.jsonl");
  EXPECT_EQ(layout.shard(2).errors, "/out/errors/00002-part.jsonl");
  EXPECT_EQ(layout.shard(3).kept, "/out/00003-part.jsonl");
}

class OutputLayoutPrepare : public ::testing::Test {
 protected:
  OutputLayoutPrepare()
      : out_(dir_.file("out")),
        layout_(out_, inputs({"/data/a.jsonl"}), jsonl(Compression::kZstd)) {}

  void put(const std::string& relative) { testing::write_file(out_ + "/" + relative, "x"); }
  bool exists(const std::string& relative) const { return fs::exists(out_ + "/" + relative); }

  // Fills the folders as a previous run (and a user) might have left them.
  void leave_old_run() {
    ASSERT_TRUE(layout_.prepare(false).is_ok());
    for (const char* file :
         {"a.jsonl.zst", "old.jsonl", "old.jsonl.gz", "stats.json", "rejected/a.jsonl.zst",
          "errors/a.jsonl", "_done/a.json", "_done/old.json", "mine.jsonl", ".a.jsonl.zst.tmp-123",
          "rejected/.a.jsonl.zst.tmp-9", "errors/.a.jsonl.tmp-77", "_done/.a.json.tmp-1",
          ".stats.json.tmp-4242", "notes.txt", "rejected/notes.txt", "_done/README", ".hidden",
          "keep.jsonl.bak"}) {
      put(file);
    }
    fs::create_directories(out_ + "/sub");
    put("sub/nested.jsonl");
    put("sub/.nested.tmp-5");
  }

  void expect_unrelated_kept() {
    for (const char* file : {"notes.txt", "rejected/notes.txt", "_done/README", ".hidden",
                             "keep.jsonl.bak", "sub/nested.jsonl", "sub/.nested.tmp-5"}) {
      EXPECT_TRUE(exists(file)) << file << " was removed";
    }
  }

  void expect_temporaries_gone() {
    for (const char* file :
         {".a.jsonl.zst.tmp-123", "rejected/.a.jsonl.zst.tmp-9", "errors/.a.jsonl.tmp-77",
          "_done/.a.json.tmp-1", ".stats.json.tmp-4242"}) {
      EXPECT_FALSE(exists(file)) << file << " was left behind";
    }
  }

  testing::TempDir dir_;
  std::string out_;
  OutputLayout layout_;
};

TEST_F(OutputLayoutPrepare, CreatesTheFolders) {
  ASSERT_FALSE(fs::exists(out_));
  Status status = layout_.prepare(false);
  ASSERT_TRUE(status.is_ok()) << status.message();
  for (const char* sub : {"", "/rejected", "/errors", "/_done"}) {
    EXPECT_TRUE(fs::is_directory(out_ + sub)) << sub;
  }
  // Preparing again is harmless.
  EXPECT_TRUE(layout_.prepare(false).is_ok());
  EXPECT_TRUE(layout_.prepare(true).is_ok());
}

TEST_F(OutputLayoutPrepare, WithoutOverwriteRemovesOnlyTemporaries) {
  leave_old_run();
  Status status = layout_.prepare(false);
  ASSERT_TRUE(status.is_ok()) << status.message();
  expect_temporaries_gone();
  for (const char* file : {"a.jsonl.zst", "old.jsonl", "old.jsonl.gz", "stats.json",
                           "rejected/a.jsonl.zst", "errors/a.jsonl", "_done/a.json"}) {
    EXPECT_TRUE(exists(file)) << file << " removed without overwrite";
  }
  expect_unrelated_kept();
}

TEST_F(OutputLayoutPrepare, WithOverwriteRemovesOldOutputs) {
  leave_old_run();
  Status status = layout_.prepare(true);
  ASSERT_TRUE(status.is_ok()) << status.message();
  expect_temporaries_gone();
  // old.* goes because an earlier run's marker (_done/old.json) names it as winnow's.
  for (const char* file :
       {"a.jsonl.zst", "old.jsonl", "old.jsonl.gz", "stats.json", "rejected/a.jsonl.zst",
        "errors/a.jsonl", "_done/a.json", "_done/old.json"}) {
    EXPECT_FALSE(exists(file)) << file << " survived overwrite";
  }
  // A JSONL file of the user's in the top folder, named by no marker, is not winnow's to delete.
  EXPECT_TRUE(exists("mine.jsonl"));
  expect_unrelated_kept();
  for (const char* sub : {"", "/rejected", "/errors", "/_done"}) {
    EXPECT_TRUE(fs::is_directory(out_ + sub)) << sub;
  }
}

TEST_F(OutputLayoutPrepare, FailsWhenTheFolderCannotBeCreated) {
  testing::write_file(out_, "a file where the folder should be");
  Status status = layout_.prepare(false);
  EXPECT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find(out_), std::string::npos) << status.message();
}

}  // namespace
}  // namespace winnow
