// Clip semantic dedup end to end: the synthetic video corpus (tools/make_video_corpus) plus a
// byte-for-byte copy of shots.mp4 under another name, split into shots, each clip embedded by
// clip_embed (a small seeded image encoder on frames at 2 fps), then semantic_dedup. Every shot
// of the copied video is found once: exactly one clip of each pair with the same span goes,
// matched to the other at similarity 1, and no clip of another video is touched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <map>
#include <set>

#include "duckdb_sql.h"
#include "models/vision_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct ClipRow {
  std::string source;
  double start = 0;
  bool kept = false;
};

// The video corpus in DIR/corpus, less its bad files (the example test's business).
void make_good_videos(const TempDir& dir) {
  std::string log;
  const std::string build = fs::path(kWinnow).parent_path().string();
  ASSERT_EQ(run_command(build + "/make_video_corpus " + dir.file("corpus"), &log), 0) << log;
  fs::remove(dir.file("corpus/cut.mp4"));
  fs::remove(dir.file("corpus/notes.mp4"));
}

TEST(VideoSemanticDedup, ClipsOfACopiedVideoAreFoundOnce) {
  TempDir dir;
  std::string log;
  ASSERT_NO_FATAL_FAILURE(make_good_videos(dir));
  fs::copy_file(dir.file("corpus/shots.mp4"), dir.file("corpus/shots_copy.mp4"));
  vision_script("encoder " + dir.file("model") + " --spatial --size 64 --embed 64");
  const std::string yaml = R"(input:
  paths: [x]
  format: videos
output:
  path: y
stages:
  - stage: split_video
    method: shot_detection
    min_clip_s: 2.0
    min_clip_frames: 48
    crop_s: 0.5
  - stage: clip_embed
    model: )" + dir.file("model") + R"(
  - stage: semantic_dedup
    n_clusters: 1
    eps: 0.01
)";
  ASSERT_EQ(winnow("run " + pipeline_file(dir, yaml) + " -i " + dir.file("corpus") + " -o " +
                       dir.file("out") + " --no-progress",
                   &log),
            0)
      << log;
  EXPECT_THAT(log, HasSubstr("reconciled"));

  std::map<std::string, ClipRow> clips;  // id -> where it came from
  simdjson::dom::parser parser;
  for (const char* folder : {"out", "out/rejected"}) {
    for (const auto& e : fs::directory_iterator(dir.file(folder))) {
      const std::string name = e.path().filename().string();
      if (!name.ends_with(".jsonl.zst")) continue;
      for (const std::string& line : split_lines(read_decompressed(e.path().string()))) {
        simdjson::dom::element row = parser.parse(line);
        ClipRow& clip = clips[std::string(row["id"].get_string().value())];
        clip.source = fs::path(std::string(row["source_video"].get_string().value()))
                          .filename()
                          .string();
        clip.start = row["span_start_s"].get_double().value();
        clip.kept = std::string_view(folder) == "out";
      }
    }
  }
  size_t shots = 0;
  for (const auto& [id, clip] : clips) shots += clip.source == "shots.mp4";
  ASSERT_EQ(shots, 4u);  // the corpus's four shots

  size_t removed = 0;
  std::set<double> starts;
  for (const std::string& line :
       split_lines(read_file(dir.file("out/global/semantic_dedup/duplicates.jsonl")))) {
    simdjson::dom::element row = parser.parse(line);
    const ClipRow& gone = clips.at(std::string(row["id"].get_string().value()));
    const ClipRow& matched = clips.at(std::string(row["matched_id"].get_string().value()));
    EXPECT_FALSE(gone.kept);
    EXPECT_TRUE(matched.kept);
    EXPECT_TRUE((gone.source == "shots.mp4" && matched.source == "shots_copy.mp4") ||
                (gone.source == "shots_copy.mp4" && matched.source == "shots.mp4"))
        << line;
    EXPECT_EQ(gone.start, matched.start) << line;
    EXPECT_NEAR(row["similarity"].get_double().value(), 1.0, 1e-6);
    starts.insert(gone.start);
    ++removed;
  }
  EXPECT_EQ(removed, 4u);
  EXPECT_EQ(starts.size(), 4u);  // each shot once
  for (const auto& [id, clip] : clips) {
    if (clip.source != "shots.mp4" && clip.source != "shots_copy.mp4") {
      EXPECT_TRUE(clip.kept) << id << " of " << clip.source;
    }
  }
}

// Clip embeddings as Parquet (the anchor writes them per video for its dedup): with
// output.format parquet each video's table has one row per kept clip, the embedding a FLOAT[]
// column, as DuckDB reads it, equal to the JSON Lines run's values.
TEST(VideoSemanticDedup, ClipEmbeddingsAsParquetLists) {
  TempDir dir;
  std::string log;
  ASSERT_NO_FATAL_FAILURE(make_good_videos(dir));
  vision_script("encoder " + dir.file("model") + " --size 32 --embed 16");
  const std::string yaml = R"(input:
  paths: [x]
  format: videos
output:
  path: y
stages:
  - stage: split_video
    method: fixed_stride
    clip_len_s: 2
    stride_s: 2
  - stage: clip_embed
    model: )" + dir.file("model") +
                           "\n";
  const std::string pipeline = pipeline_file(dir, yaml);
  for (const char* format : {"parquet", "jsonl"}) {
    ASSERT_EQ(winnow("run " + pipeline + " -i " + dir.file("corpus") + " -o " +
                         dir.file(std::string("out_") + format) + " --no-progress -q " +
                         "--output-format " + format,
                     &log),
              0)
        << log;
  }
  DuckDbSql sql;
  const std::string parquet = read_parquet(dir.file("out_parquet/shots.mp4.parquet"));
  EXPECT_EQ(sql.value("SELECT typeof(embedding) FROM " + parquet + " LIMIT 1"), "FLOAT[]");
  EXPECT_EQ(sql.value("SELECT count(*) FROM " + parquet + " WHERE len(embedding) = 16"), "6");
  // The same clips and vectors as the JSON Lines run.
  const std::string json = "read_json('" + dir.file("out_jsonl/shots.mp4.jsonl") +
                           "', columns = {'id': 'VARCHAR', 'embedding': 'FLOAT[]'})";
  EXPECT_EQ(
      sql.differences("SELECT id, embedding FROM " + parquet, "SELECT id, embedding FROM " + json),
      "0");
}

}  // namespace
}  // namespace winnow::testing
