// WebDataset shards through the real binary, checked with Python's tarfile as the independent
// reader: a pipeline without stages gives back every member (name, bytes, mtime, mode) in its
// order; max_tar_bytes cuts the output between samples; the metadata table has a row per kept
// sample with its key and source shard; every kind of bad input is an error record under
// on_error: skip and ends the run naming the file under on_error: fail; and the output is the
// same bytes for 1 and 3 threads and any batch size, filters and dedup included.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kImagesDir = "/usr/lib/python3/dist-packages/imageio/resources/images";

// Writes a tar of (name, file) members with Python's tarfile, each with its own mtime.
void python_tar(const TempDir& dir, const std::string& tar,
                const std::vector<std::pair<std::string, std::string>>& members) {
  std::string list;
  for (const auto& [name, path] : members) list += name + "\t" + path + "\n";
  write_file(dir.file("list.tsv"), list);
  write_file(dir.file("tar.py"),
             "import sys, tarfile\n"
             "with tarfile.open(sys.argv[2], 'w') as t:\n"
             "    for n, line in enumerate(open(sys.argv[1])):\n"
             "        name, path = line.rstrip('\\n').split('\\t')\n"
             "        info = t.gettarinfo(path, arcname=name)\n"
             "        info.mtime = 1600000000 + n\n"
             "        info.mode = 0o600 if n % 2 else 0o644\n"
             "        t.addfile(info, open(path, 'rb'))\n");
  std::string out;
  ASSERT_EQ(
      run_command("/usr/bin/python3 " + dir.file("tar.py") + " " + dir.file("list.tsv") + " " + tar,
                  &out),
      0)
      << out;
}

// "name sha256 mtime mode" of every member of the tars, in order, by Python's tarfile.
std::string python_members(const TempDir& dir, const std::vector<std::string>& tars) {
  write_file(dir.file("list.py"),
             "import hashlib, sys, tarfile\n"
             "for path in sys.argv[1:]:\n"
             "    with tarfile.open(path) as t:\n"
             "        for m in t:\n"
             "            data = t.extractfile(m).read()\n"
             "            print(m.name, hashlib.sha256(data).hexdigest(), m.mtime, oct(m.mode))\n");
  std::string command = "/usr/bin/python3 " + dir.file("list.py");
  for (const auto& t : tars) command += " " + t;
  std::string out;
  EXPECT_EQ(run_command(command, &out), 0) << out;
  return out;
}

std::vector<std::string> tars_in(const std::string& dir) {
  std::vector<std::string> tars;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".tar") tars.push_back(e.path().string());
  }
  std::sort(tars.begin(), tars.end());
  return tars;
}

class WebDatasetCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kImagesDir + "/chelsea.png")) GTEST_SKIP() << "python3-imageio not installed";
    fs::create_directories(dir_.file("in"));
    write_file(dir_.file("cap0.txt"), "a cat on a rug");
    write_file(dir_.file("meta0.json"), R"({"source": "imageio", "w": 451})");
    write_file(dir_.file("cap1.txt"), "an astronaut");
    write_file(dir_.file("cap2.txt"), "a cradle");
    python_tar(dir_, dir_.file("in/shard-a.tar"),
               {{"s/000.png", kImagesDir + "/chelsea.png"},
                {"s/000.txt", dir_.file("cap0.txt")},
                {"s/000.json", dir_.file("meta0.json")},
                {"s/001.txt", dir_.file("cap1.txt")},
                {"s/001.png", kImagesDir + "/astronaut.png"},
                {"s/002.gif", kImagesDir + "/newtonscradle.gif"},
                {"s/002.txt", dir_.file("cap2.txt")},
                // The same picture again under another key: exact_dedup's duplicate.
                {"s/003.png", kImagesDir + "/chelsea.png"}});
  }
  TempDir dir_;
};

TEST_F(WebDatasetCli, RoundTripGivesBackEveryMemberUnchanged) {
  write_file(dir_.file("p.yaml"), "input: {format: webdataset}\noutput: {format: jsonl}\n");
  std::string out;
  ASSERT_EQ(winnow("run " + dir_.file("p.yaml") + " -i " + dir_.file("in") + " -o " +
                       dir_.file("out") + " --no-progress",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("documents 4 = kept 4 + dropped 0 + errors 0"));
  auto tars = tars_in(dir_.file("out/files"));
  ASSERT_EQ(tars, std::vector<std::string>{dir_.file("out/files/shard-a-00000.tar")});
  EXPECT_EQ(python_members(dir_, tars), python_members(dir_, {dir_.file("in/shard-a.tar")}));
  // One metadata row per kept sample: its key and source shard.
  auto rows = split_lines(read_file(dir_.file("out/shard-a.jsonl")));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_THAT(rows[0], HasSubstr(R"("key":"s/000")"));
  EXPECT_THAT(rows[0], HasSubstr(R"("shard":")" + dir_.file("in/shard-a.tar") + "\""));
  EXPECT_THAT(rows[0], HasSubstr(R"("members":["png","txt","json"])"));
  EXPECT_THAT(rows[2], HasSubstr(R"("media_type":"image/gif")"));
}

TEST_F(WebDatasetCli, TarsCutBetweenSamplesAndDeterministicAcrossThreads) {
  // Filters and both dedups; tars of at most ~300 KB (each sample is 100-500 KB).
  write_file(dir_.file("p.yaml"), R"(
input: {format: webdataset}
output: {format: jsonl.zst, max_tar_bytes: 300000}
stages:
  - {stage: image_size_filter, min_width: 250, annotate: true}
  - {stage: image_exact_dedup}
  - {stage: image_dedup}
  - {stage: image_blur_filter, min_variance: 0}
)");
  std::string base = "run " + dir_.file("p.yaml") + " -i " + dir_.file("in") + " --no-progress ";
  std::string out;
  ASSERT_EQ(winnow(base + "-o " + dir_.file("one") + " --threads 1 --batch-size 1", &out), 0)
      << out;
  // 002.gif is 200 px wide (too_small), 003 is 000's exact copy.
  EXPECT_THAT(out, HasSubstr("documents 4 = kept 2 + dropped 2 + errors 0"));
  ASSERT_EQ(winnow(base + "-o " + dir_.file("three") + " --threads 3 --batch-size 3", &out), 0)
      << out;
  EXPECT_EQ(result_tree(dir_.file("one")), result_tree(dir_.file("three")));
  auto tars = tars_in(dir_.file("one/files"));
  ASSERT_EQ(tars.size(), 2u);  // chelsea's sample alone, then the astronaut's
  std::string members = python_members(dir_, tars);
  EXPECT_THAT(members, HasSubstr("s/000.json"));
  EXPECT_THAT(members, HasSubstr("s/001.png"));
  EXPECT_THAT(members, ::testing::Not(HasSubstr("s/003.png")));
  std::string rejected = read_decompressed(dir_.file("one/rejected/shard-a.jsonl.zst"));
  EXPECT_THAT(rejected, HasSubstr(R"("reason":"too_small","score":150)"));
  EXPECT_THAT(rejected, HasSubstr(R"("reason":"exact_duplicate")"));
}

TEST(WebDatasetBadInput, EveryKindUnderBothPolicies) {
  if (!fs::exists(kImagesDir + "/chelsea.png")) GTEST_SKIP() << "python3-imageio not installed";
  using namespace std::string_literals;
  TempDir dir;
  fs::create_directories(dir.file("in"));
  const std::string png = kImagesDir + "/chelsea.png";
  write_file(dir.file("text.jpg"), "not a jpeg");
  write_file(dir.file("bomb.png"),
             "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\x01\x86\xa0\0\x01\x86\xa0\x08\x02\0\0\0\0\0\0\0"s);
  write_file(dir.file("big.png"), std::string(300000, 'x'));
  python_tar(dir, dir.file("in/undecodable.tar"),
             {{"a.png", png}, {"b.jpg", dir.file("text.jpg")}});
  python_tar(dir, dir.file("in/bomb.tar"), {{"a.png", png}, {"b.png", dir.file("bomb.png")}});
  python_tar(dir, dir.file("in/too_large.tar"), {{"a.png", png}, {"b.png", dir.file("big.png")}});
  python_tar(dir, dir.file("good.tar"), {{"a.png", png}, {"b.png", png}});
  std::string tar = read_file(dir.file("good.tar"));
  size_t b_header = 512 + (fs::file_size(png) + 511) / 512 * 512;
  write_file(dir.file("in/truncated.tar"), tar.substr(0, b_header + 512 + 1000));
  std::string corrupt = tar;
  for (size_t i = 0; i < 64; ++i) corrupt[b_header + i] = '#';
  write_file(dir.file("in/corrupt.tar"), corrupt);
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"undecodable", "undecodable_image"},
      {"bomb", "image_too_large"},
      {"too_large", "record_too_large"},
      {"truncated", "truncated_tar"},
      {"corrupt", "corrupt_tar"}};
  write_file(dir.file("skip.yaml"),
             "input: {format: webdataset, max_file_bytes: 250000}\non_error: skip\n");
  std::string out;
  ASSERT_EQ(winnow("run " + dir.file("skip.yaml") + " -i " + dir.file("in") + " -o " +
                       dir.file("out") + " --no-progress",
                   &out),
            0)
      << out;
  // Each shard: a.png kept, the bad sample an error.
  EXPECT_THAT(out, HasSubstr("documents 10 = kept 5 + dropped 0 + errors 5"));
  for (const auto& [name, kind] : kinds) {
    std::string errors = read_file(dir.file("out/errors/" + name + ".jsonl"));
    EXPECT_THAT(errors, HasSubstr("\"error\":\"" + kind + "\"")) << name;
    EXPECT_THAT(errors, HasSubstr(dir.file("in/" + name + ".tar"))) << name;
    EXPECT_EQ(python_members(dir, {dir.file("out/files/" + name + "-00000.tar")}).find("a.png"), 0u)
        << name;
  }
  write_file(dir.file("fail.yaml"),
             "input: {format: webdataset, max_file_bytes: 250000}\non_error: fail\n");
  for (const auto& [name, kind] : kinds) {
    int rc = winnow("run " + dir.file("fail.yaml") + " -i " + dir.file("in/" + name + ".tar") +
                        " -o " + dir.file("fail-" + name) + " --no-progress",
                    &out);
    EXPECT_EQ(rc, 1) << name << ": " << out;
    EXPECT_THAT(out, HasSubstr(dir.file("in/" + name + ".tar"))) << name;
    EXPECT_THAT(out, HasSubstr("on_error: fail")) << name;
    EXPECT_FALSE(fs::exists(dir.file("fail-" + name + "/_done/" + name + ".json"))) << name;
  }
}

// A key that comes again later in a tar, or two members of one extension in a sample: one id
// would name two items (and the output tar hold two members of one name). The repeat is an
// error record naming the tar and the key; the first sample with the key is kept. Tars made
// by Python's tarfile, which writes such members as told; the output read back with it.
TEST(WebDatasetBadInput, DuplicateKeysUnderBothPolicies) {
  if (!fs::exists(kImagesDir + "/chelsea.png")) GTEST_SKIP() << "python3-imageio not installed";
  TempDir dir;
  fs::create_directories(dir.file("in"));
  const std::string chelsea = kImagesDir + "/chelsea.png";
  const std::string astronaut = kImagesDir + "/astronaut.png";
  write_file(dir.file("cap.txt"), "a cat");
  python_tar(dir, dir.file("in/repeat.tar"),
             {{"s/a.png", chelsea},
              {"s/a.txt", dir.file("cap.txt")},
              {"s/b.png", astronaut},
              {"s/a.png", astronaut},  // key s/a again, after s/b
              {"s/c.png", chelsea}});
  python_tar(dir, dir.file("in/twice.tar"),
             {{"a.png", chelsea}, {"a.png", astronaut}, {"b.png", astronaut}});
  // The names of the members of a tar, in order, as Python's tarfile lists them.
  auto names = [&](const std::string& tar) {
    std::string names;
    for (const std::string& line : split_lines(python_members(dir, {tar}))) {
      names += line.substr(0, line.find(' ')) + " ";
    }
    return names;
  };
  write_file(dir.file("skip.yaml"),
             "input: {format: webdataset}\noutput: {format: jsonl}\non_error: skip\n");
  std::string out;
  ASSERT_EQ(winnow("run " + dir.file("skip.yaml") + " -i " + dir.file("in") + " -o " +
                       dir.file("out") + " --no-progress",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("documents 6 = kept 4 + dropped 0 + errors 2"));
  EXPECT_EQ(names(dir.file("out/files/repeat-00000.tar")), "s/a.png s/a.txt s/b.png s/c.png ");
  EXPECT_EQ(names(dir.file("out/files/twice-00000.tar")), "b.png ");
  const std::string repeat = read_file(dir.file("out/errors/repeat.jsonl"));
  EXPECT_THAT(repeat, HasSubstr(R"("error":"duplicate_key")"));
  EXPECT_THAT(repeat, HasSubstr(dir.file("in/repeat.tar") + ": sample s/a "));
  const std::string twice = read_file(dir.file("out/errors/twice.jsonl"));
  EXPECT_THAT(twice, HasSubstr(R"("error":"duplicate_key")"));
  EXPECT_THAT(twice, HasSubstr(dir.file("in/twice.tar") + ": sample a "));
  EXPECT_THAT(twice, HasSubstr("a.png and a.png"));
  // The ids of the metadata rows are distinct: one per kept sample.
  EXPECT_EQ(split_lines(read_file(dir.file("out/repeat.jsonl"))).size(), 3u);

  write_file(dir.file("fail.yaml"), "input: {format: webdataset}\non_error: fail\n");
  // tar, key, what is wrong with it
  const std::vector<std::array<std::string, 3>> said = {
      {"repeat", "s/a", "repeats a key met earlier in this tar"},
      {"twice", "a", "has two members of one extension: a.png and a.png"}};
  for (const auto& [name, key, why] : said) {
    int rc = winnow("run " + dir.file("fail.yaml") + " -i " + dir.file("in/" + name + ".tar") +
                        " -o " + dir.file("fail-" + name) + " --no-progress",
                    &out);
    EXPECT_EQ(rc, 1) << name << ": " << out;
    EXPECT_THAT(out, HasSubstr(dir.file("in/" + name + ".tar") + ": sample " + key + " (at byte "))
        << name;
    EXPECT_THAT(out, HasSubstr(") " + why)) << name;
    EXPECT_THAT(out, HasSubstr("on_error: fail")) << name;
  }
}

}  // namespace
}  // namespace winnow::testing

namespace winnow::testing {
namespace {

// A PNG whose header reads but whose pixel data is cut short: the reader lets it through (its
// size is known), the first stage that decodes it reports an error record.
TEST(WebDatasetBadInput, DamagedPixelsAreAnErrorRecordUnderBothPolicies) {
  if (!fs::exists(kImagesDir + "/chelsea.png")) GTEST_SKIP() << "python3-imageio not installed";
  TempDir dir;
  fs::create_directories(dir.file("in"));
  const std::string png = kImagesDir + "/chelsea.png";
  const std::string bytes = read_file(png);
  write_file(dir.file("cut.png"), bytes.substr(0, 200));  // IHDR whole, IDAT cut
  python_tar(dir, dir.file("in/damaged.tar"), {{"a.png", png}, {"b.png", dir.file("cut.png")}});
  const std::string stages = "stages:\n  - stage: image_blur_filter\n    min_variance: 0\n";
  write_file(dir.file("skip.yaml"), "input: {format: webdataset}\non_error: skip\n" + stages);
  std::string out;
  ASSERT_EQ(winnow("run " + dir.file("skip.yaml") + " -i " + dir.file("in") + " -o " +
                       dir.file("out") + " --no-progress",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("documents 2 = kept 1 + dropped 0 + errors 1"));
  const std::string errors = read_file(dir.file("out/errors/damaged.jsonl"));
  EXPECT_THAT(errors, HasSubstr("image_blur_filter/undecodable_image"));
  EXPECT_THAT(errors, HasSubstr("image 'b' cannot be decoded"));
  EXPECT_THAT(errors, HasSubstr(dir.file("in/damaged.tar")));
  write_file(dir.file("fail.yaml"), "input: {format: webdataset}\non_error: fail\n" + stages);
  EXPECT_EQ(winnow("run " + dir.file("fail.yaml") + " -i " + dir.file("in") + " -o " +
                       dir.file("failed") + " --no-progress",
                   &out),
            1)
      << out;
  EXPECT_THAT(out, HasSubstr("image 'b' cannot be decoded"));
  EXPECT_THAT(out, HasSubstr("on_error: fail"));
}

}  // namespace
}  // namespace winnow::testing
