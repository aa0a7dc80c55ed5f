#include "io/arxiv_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct Read {
  std::vector<std::pair<std::string, std::string>> docs;  // id, text
  std::vector<InputErrorRecord> errors;
  uint64_t skipped = 0;
  std::map<std::string, uint64_t> counts;
};

Read read_all(const std::string& path) {
  ArxivReader reader(path, 3, {});
  Read out;
  simdjson::dom::parser parser;
  while (auto batch = reader.next()) {
    for (size_t i = 0; i < batch->size(); ++i) {
      simdjson::dom::element record = parser.parse(std::string(batch->record(i)));
      EXPECT_EQ(std::string(record["source_id"].get_string().value()), fs::path(path).filename());
      EXPECT_EQ(batch->id(i), std::string(record["id"].get_string().value()));
      out.docs.emplace_back(std::string(batch->id(i)), std::string(batch->text(i)));
    }
    for (auto& e : batch->errors) out.errors.push_back(e);
    out.skipped += batch->skipped_records;
    for (auto& [name, n] : batch->stage_counts) out.counts[name] += n;
  }
  return out;
}

// The bulk tar and NeMo's documents for it, both from Python (tarfile, gzip and NeMo's rules).
std::string make_bulk_tar(const TempDir& dir) {
  std::string tar = dir.file("arXiv_src_2301_001.tar");
  std::string out;
  EXPECT_EQ(run_command("python3 " + kSource + "/tests/io/make_arxiv_tar.py " + tar + " " +
                            dir.file("expected.jsonl"),
                        &out),
            0)
      << out;
  return tar;
}

TEST(ArxivReader, SamePapersAndTextsAsNemoAndEverySkipCounted) {
  TempDir dir;
  std::string tar = make_bulk_tar(dir);
  Read read = read_all(tar);
  ASSERT_TRUE(read.errors.empty()) << read.errors[0].message;
  std::vector<std::string> expected = split_lines(read_file(dir.file("expected.jsonl")));
  ASSERT_EQ(read.docs.size(), expected.size());
  ASSERT_EQ(expected.size(), 3u);
  simdjson::dom::parser parser;
  for (size_t i = 0; i < expected.size(); ++i) {
    simdjson::dom::element want = parser.parse(expected[i]);
    EXPECT_EQ(read.docs[i].first, std::string(want["id"].get_string().value()));
    EXPECT_EQ(read.docs[i].second, std::string(want["text"].get_string().value()));
  }
  EXPECT_EQ(read.skipped, 5u);
  EXPECT_EQ(read.counts["read/arxiv_unreadable"], 1u);  // the PDF
  EXPECT_EQ(read.counts["read/arxiv_no_section"], 1u);
  EXPECT_EQ(read.counts["read/arxiv_not_utf8"], 1u);
  EXPECT_EQ(read.counts["read/arxiv_no_tex_file"], 1u);  // only README and a.TEX
  EXPECT_EQ(read.counts["read/arxiv_macro_value"], 1u);  // \def\name{José}
}

TEST(ArxivReader, ATruncatedTarKeepsWholePapersAndNamesTheMember) {
  TempDir dir;
  std::string tar = make_bulk_tar(dir);
  std::string bytes = read_file(tar);
  // Cut inside the fourth regular member's data (the tar's first member is the folder).
  write_file(dir.file("arXiv_src_cut.tar"), bytes.substr(0, 512 * 9 + 100));
  Read read = read_all(dir.file("arXiv_src_cut.tar"));
  ASSERT_EQ(read.errors.size(), 1u);
  EXPECT_THAT(read.errors[0].message, HasSubstr("arXiv_src_cut.tar"));
  EXPECT_THAT(read.errors[0].message, HasSubstr("2301/2301.00"));
  EXPECT_GE(read.docs.size(), 1u);
  EXPECT_EQ(read.docs[0].first, "2301.00001");
}

TEST(ArxivReader, WinnowRunReadsBulkTarsByName) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  std::string tar = make_bulk_tar(dir);
  fs::rename(tar, dir.file("in/arXiv_src_2301_001.tar"));
  write_file(dir.file("p.yaml"), "output: {format: jsonl}\n");
  std::string out;
  ASSERT_EQ(winnow("run " + dir.file("p.yaml") + " -i " + dir.file("in") + " -o " +
                       dir.file("out") + " --no-progress",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("documents 3 = kept 3 + dropped 0 + errors 0")) << out;
  std::vector<std::string> lines = split_lines(read_file(dir.file("out/arXiv_src_2301_001.jsonl")));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_THAT(lines[2], HasSubstr("\"id\":\"astro-ph/0001001\""));
  std::string stats = read_file(dir.file("out/stats.json"));
  EXPECT_THAT(stats, HasSubstr("\"skipped_records\": 5"));
  EXPECT_THAT(stats, HasSubstr("\"read/arxiv_no_tex_file\": 1"));
}

}  // namespace
}  // namespace winnow::testing
