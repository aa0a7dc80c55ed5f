// WebDatasetReader on tars written by Python's tarfile (an independent writer): members are
// grouped into samples by key, each member's bytes come back unchanged, and every kind of bad
// input is an error record naming the file and the member, with the samples around it kept.
#include "io/webdataset_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const std::string kChelsea = "/usr/lib/python3/dist-packages/imageio/resources/images/chelsea.png";
const std::string kCradle =
    "/usr/lib/python3/dist-packages/imageio/resources/images/newtonscradle.gif";

// A tar of `members` (name, bytes) in this order, written by Python's tarfile.
void make_tar(const TempDir& dir, const std::string& tar,
              const std::vector<std::pair<std::string, std::string>>& members,
              const std::string& mode = "w") {
  std::string list;
  fs::create_directories(dir.file("members"));
  for (size_t i = 0; i < members.size(); ++i) {
    std::string path = dir.file("members/" + std::to_string(i));
    write_file(path, members[i].second);
    list += members[i].first + "\t" + path + "\n";
  }
  write_file(dir.file("list.tsv"), list);
  std::string script = dir.file("make_tar.py");
  write_file(script,
             "import sys, tarfile\n"
             "with tarfile.open(sys.argv[2], sys.argv[3]) as t:\n"
             "    for line in open(sys.argv[1]):\n"
             "        name, path = line.rstrip('\\n').split('\\t')\n"
             "        info = t.gettarinfo(path, arcname=name)\n"
             "        info.mtime = 1700000000 + len(name)\n"
             "        info.mode = 0o640\n"
             "        info.uid = info.gid = 0\n"
             "        info.uname = info.gname = ''\n"
             "        t.addfile(info, open(path, 'rb'))\n");
  std::string out;
  ASSERT_EQ(
      run_command(
          "/usr/bin/python3 " + script + " " + dir.file("list.tsv") + " " + tar + " " + mode, &out),
      0)
      << out;
}

struct Read {
  std::vector<std::string> ids;
  std::vector<Payload> payloads;
  std::vector<DocKey> keys;
  std::vector<InputErrorRecord> errors;
  size_t batches = 0;
};

Read read_all(const std::string& path, MediaFileOptions media = {}, size_t batch_records = 2) {
  WebDatasetReader reader(path, 5, {media, batch_records, 8 << 20});
  Read out;
  while (auto batch = reader.next()) {
    EXPECT_EQ(batch->sequence, out.batches++);
    if (batch->end_of_shard) {
      EXPECT_EQ(reader.next(), nullptr);
      break;
    }
    for (size_t i = 0; i < batch->size(); ++i) {
      out.ids.emplace_back(batch->id(i));
      out.payloads.push_back(*batch->payload(i));
      out.keys.push_back(batch->key(i));
      EXPECT_EQ(batch->kind(i), ItemKind::kImage);
    }
    for (auto& e : batch->errors) out.errors.push_back(e);
  }
  return out;
}

bool have_images() { return fs::exists(kChelsea) && fs::exists(kCradle); }

TEST(WebDatasetReader, SplitsNamesAsWebDatasetDoes) {
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(WebDatasetReader::split_name("a/b/000123.jpg"), P("a/b/000123", "jpg"));
  EXPECT_EQ(WebDatasetReader::split_name("x.y/k.seg.JSON"), P("x.y/k", "seg.json"));
  EXPECT_EQ(WebDatasetReader::split_name("noext"), P("noext", ""));
  EXPECT_TRUE(WebDatasetReader::is_tar_path("s/shard-0001.tar.gz"));
  EXPECT_FALSE(WebDatasetReader::is_tar_path("s/shard-0001.jsonl"));
}

TEST(WebDatasetReader, GroupsMembersIntoSamplesWithTheirBytes) {
  if (!have_images()) GTEST_SKIP() << "python3-imageio's sample images are not installed";
  TempDir dir;
  const std::string png = read_file(kChelsea), gif = read_file(kCradle);
  const std::string json = R"({"caption": "a cat", "n": 1})";
  make_tar(dir, dir.file("s.tar"),
           {{"d/000.txt", "a cat"},
            {"d/000.png", png},
            {"d/000.json", json},
            {"d/001.gif", gif},
            {"d/002.png", png},
            {"d/002.txt", ""}});
  Read r = read_all(dir.file("s.tar"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0].message;
  ASSERT_EQ(r.ids, (std::vector<std::string>{"d/000", "d/001", "d/002"}));
  EXPECT_EQ(r.batches, 3u);  // 2 samples, 1 sample, the end marker
  EXPECT_EQ(r.keys[0], DocKey::make(5, 0));
  EXPECT_EQ(r.keys[2], DocKey::make(5, 2));
  const Payload& first = r.payloads[0];
  EXPECT_EQ(first.media_type, "image/png");
  EXPECT_EQ(first.bytes(), png);  // the item's bytes are the image member's
  ASSERT_EQ(first.members.size(), 3u);
  EXPECT_EQ(first.members[0].name, "d/000.txt");
  EXPECT_EQ(first.member_bytes(first.members[0]), "a cat");
  EXPECT_EQ(first.member_bytes(first.members[2]), json);
  EXPECT_EQ(first.members[1].mtime, 1700000000 + 9);
  EXPECT_EQ(first.members[1].mode, 0640u);
  EXPECT_EQ(r.payloads[1].media_type, "image/gif");
  EXPECT_EQ(r.payloads[2].members[1].size, 0u);
}

TEST(WebDatasetReader, ReadsCompressedTars) {
  if (!have_images()) GTEST_SKIP();
  TempDir dir;
  make_tar(dir, dir.file("s.tar.gz"), {{"k.png", read_file(kChelsea)}, {"k.txt", "c"}}, "w:gz");
  Read r = read_all(dir.file("s.tar.gz"));
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.ids.size(), 1u);
  EXPECT_EQ(r.payloads[0].bytes(), read_file(kChelsea));
}

TEST(WebDatasetReader, BadSamplesAreErrorRecordsAndReadingGoesOn) {
  if (!have_images()) GTEST_SKIP();
  using namespace std::string_literals;
  TempDir dir;
  const std::string png = read_file(kChelsea);
  const std::string bomb =
      "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\x01\x86\xa0\0\x01\x86\xa0\x08\x02\0\0\0\0\0\0\0"s;
  make_tar(dir, dir.file("s.tar"),
           {{"a.png", png},
            {"b.jpg", "not a jpeg at all"},
            {"b.txt", "caption"},
            {"c.png", bomb},
            {"d.txt", "a caption without its image"},
            {"e.png", png + png},  // over the member limit below
            {"f.png", png}});
  MediaFileOptions limits;
  limits.max_bytes = png.size() + 10;
  Read r = read_all(dir.file("s.tar"), limits);
  EXPECT_EQ(r.ids, (std::vector<std::string>{"a", "f"}));
  // Errors take their sample's row, so later samples keep their keys.
  EXPECT_EQ(r.keys[1], DocKey::make(5, 5));
  ASSERT_EQ(r.errors.size(), 4u);
  EXPECT_EQ(input_error_name(r.errors[0].kind), "undecodable_image");
  EXPECT_THAT(r.errors[0].message, HasSubstr("b.jpg"));
  EXPECT_THAT(r.errors[0].message, HasSubstr(dir.file("s.tar")));
  EXPECT_EQ(input_error_name(r.errors[1].kind), "image_too_large");
  EXPECT_THAT(r.errors[1].message, HasSubstr("100000x100000"));
  EXPECT_EQ(input_error_name(r.errors[2].kind), "sample_without_image");
  EXPECT_EQ(input_error_name(r.errors[3].kind), "record_too_large");
  EXPECT_THAT(r.errors[3].message, HasSubstr("e.png"));
}

TEST(WebDatasetReader, TruncatedTarKeepsWholeSamplesBeforeTheCut) {
  if (!have_images()) GTEST_SKIP();
  TempDir dir;
  const std::string png = read_file(kChelsea);
  make_tar(dir, dir.file("s.tar"), {{"a.png", png}, {"a.txt", "x"}, {"b.png", png}});
  std::string tar = read_file(dir.file("s.tar"));
  // Cut inside b.png's data: the header of a.png, its data, a.txt's header and data, b.png's
  // header, then half of b.png.
  size_t b_data = 512 + (png.size() + 511) / 512 * 512 + 1024 + 512;
  write_file(dir.file("cut.tar"), tar.substr(0, b_data + png.size() / 2));
  Read r = read_all(dir.file("cut.tar"));
  EXPECT_EQ(r.ids, (std::vector<std::string>{"a"}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(input_error_name(r.errors[0].kind), "truncated_tar");
  EXPECT_THAT(r.errors[0].message, HasSubstr("b.png"));
}

TEST(WebDatasetReader, CorruptTarIsAnErrorNotACrash) {
  if (!have_images()) GTEST_SKIP();
  TempDir dir;
  const std::string png = read_file(kChelsea);
  make_tar(dir, dir.file("s.tar"), {{"a.png", png}, {"b.png", png}});
  std::string tar = read_file(dir.file("s.tar"));
  // Damage b.png's header (its checksum no longer matches): a.png survives.
  size_t b_header = 512 + (png.size() + 511) / 512 * 512;
  for (size_t i = 0; i < 100; ++i) tar[b_header + i] = 'Z';
  write_file(dir.file("bad.tar"), tar);
  Read r = read_all(dir.file("bad.tar"));
  EXPECT_EQ(r.ids, (std::vector<std::string>{"a"}));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(input_error_name(r.errors[0].kind), "corrupt_tar");
  // Not a tar at all, and an empty file.
  write_file(dir.file("text.tar"), std::string(2000, 'x'));
  Read text = read_all(dir.file("text.tar"));
  ASSERT_EQ(text.errors.size(), 1u);
  EXPECT_EQ(input_error_name(text.errors[0].kind), "corrupt_tar");
  write_file(dir.file("empty.tar"), "");
  Read empty = read_all(dir.file("empty.tar"));
  ASSERT_EQ(empty.errors.size(), 1u);
  EXPECT_EQ(input_error_name(empty.errors[0].kind), "empty_file");
}

}  // namespace
}  // namespace winnow::testing
