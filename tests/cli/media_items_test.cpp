// Media items through the real binary: real images from this machine's own files (the Python
// manual's figures) pass through a pipeline unchanged, byte for byte, with a metadata line each
// (read back with python3's json and the zstd command, not winnow's reader); bad files are error
// records naming them; and a pipeline that hands images to a stage that takes documents is
// refused when it is loaded, naming both.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kImages = "/usr/share/doc/python3/html/_images";

// `winnow run DIR/pipeline.yaml -i INPUT -o DIR/OUT`; fills `out` with what it printed.
int run_pipeline_in(const TempDir& dir, const std::string& input, const std::string& out_name,
                    std::string* out, const std::string& extra = "") {
  return run_command(kWinnow + " run " + dir.file("pipeline.yaml") + " -i " + input + " -o " +
                         dir.file(out_name) + " --no-progress " + extra,
                     out);
}

std::vector<fs::path> machine_images() {
  std::vector<fs::path> images;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kImages, ec)) {
    if (entry.path().extension() == ".png") images.push_back(entry.path());
  }
  std::sort(images.begin(), images.end());
  return images;
}

TEST(MediaItems, ImagesPassThroughUnchanged) {
  auto images = machine_images();
  if (images.empty()) GTEST_SKIP() << "no images in " << kImages << " (python3-doc)";
  TempDir dir;
  fs::create_directories(dir.file("in/sub"));
  for (size_t i = 0; i < images.size(); ++i) {
    // One in a sub-folder: folders are walked.
    fs::copy_file(images[i], dir.file(i == 0 ? "in/sub/" : "in/") + images[i].filename().string());
  }
  write_file(dir.file("in/notes.txt"), "not an image, not an input");
  write_file(dir.file("pipeline.yaml"), R"(
input: {format: images}
output: {format: jsonl.zst}
stages:
  - {stage: sample, fraction: 1.0}
  - {stage: add_id, prefix: img}
)");
  std::string out;
  int rc = run_pipeline_in(dir, dir.file("in"), "out", &out, "--threads 2");
  ASSERT_EQ(rc, 0) << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  for (const fs::path& image : images) {
    std::string name = image.filename().string();
    std::string written = dir.file("out/files/" + name);
    ASSERT_TRUE(fs::exists(written)) << name;
    EXPECT_TRUE(read_file(written) == read_file(image.string())) << name << " changed";
  }
  // The kept tables, read by the zstd command and Python's json module: one line per image.
  std::string lines;
  rc = run_command("cd " + dir.file("out") +
                       " && zstd -dcq *.png.jsonl.zst | python3 -c 'import json,sys\n"
                       "for l in sys.stdin:\n"
                       "  d=json.loads(l); print(d[\"kind\"], d[\"media_type\"], d[\"bytes\"], "
                       "d[\"file\"], d[\"id\"][:4])'",
                   &lines);
  ASSERT_EQ(rc, 0) << lines;
  auto rows = split_lines(lines);
  ASSERT_EQ(rows.size(), images.size());
  for (const std::string& row : rows) {
    EXPECT_THAT(row, ::testing::StartsWith("image image/png "));
    EXPECT_THAT(row, HasSubstr(" files/"));
    EXPECT_THAT(row, ::testing::EndsWith(" img-"));
  }
  std::string stats = read_file(dir.file("out/stats.json"));
  EXPECT_THAT(stats, HasSubstr("\"image@0\""));
  EXPECT_THAT(stats, HasSubstr("\"kind_in\": \"image\""));
}

TEST(MediaItems, BadFilesAreErrorRecordsNamingThem) {
  auto images = machine_images();
  if (images.empty()) GTEST_SKIP() << "no images in " << kImages;
  TempDir dir;
  fs::create_directories(dir.file("in"));
  fs::copy_file(images[0], dir.file("in/good.png"));
  write_file(dir.file("in/empty.png"), "");
  write_file(dir.file("in/text.png"), "this is text, not a PNG");
  write_file(dir.file("pipeline.yaml"), "input: {format: images}\non_error: skip\n");
  std::string out;
  int rc = run_pipeline_in(dir, dir.file("in"), "out", &out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_THAT(out, HasSubstr("documents 3 = kept 1 + dropped 0 + errors 2"));
  std::string errors = read_file(dir.file("out/errors/empty.png.jsonl")) +
                       read_file(dir.file("out/errors/text.png.jsonl"));
  EXPECT_THAT(errors, HasSubstr("empty_file"));
  EXPECT_THAT(errors, HasSubstr("unknown_media"));
  EXPECT_THAT(errors, HasSubstr(dir.file("in/text.png")));
  EXPECT_TRUE(fs::exists(dir.file("out/files/good.png")));
  // Under on_error: fail the first bad file stops the run, naming it.
  write_file(dir.file("pipeline.yaml"), "input: {format: images}\non_error: fail\n");
  rc = run_pipeline_in(dir, dir.file("in"), "failed", &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_THAT(out, HasSubstr("empty.png"));
}

TEST(MediaItems, AKindMismatchIsRefusedWhenThePipelineLoads) {
  TempDir dir;
  write_file(dir.file("in.png"), "never read");
  write_file(dir.file("pipeline.yaml"), R"(
input: {format: images}
stages:
  - {stage: sample, fraction: 0.5}
  - {stage: unicode_fix, name: fix}
)");
  std::string out;
  int rc = run_pipeline_in(dir, dir.file("in.png"), "out", &out);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_THAT(out, HasSubstr("pipeline.yaml:5"));
  // (Text filters take images, whose text is their caption; a stage that rewrites text
  // does not.)
  EXPECT_THAT(out, HasSubstr("stage 'fix' (unicode_fix) takes documents, but stage 'sample' "
                             "gives it images"));
  EXPECT_FALSE(fs::exists(dir.file("out")));  // nothing was touched
}

}  // namespace
}  // namespace winnow::testing
