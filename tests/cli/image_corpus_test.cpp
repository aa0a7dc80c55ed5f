// examples/images.yaml on the corpus scripts/make_image_corpus packs from this machine's
// pictures, with planted near-duplicates (resized to 60 %, re-encoded as JPEG at quality 35,
// cropped by 3 %, mirrored) whose truth the script writes down. Checks, against that truth:
// at least 99 % of the planted copies that reach image_dedup are grouped with their original,
// mirrored copies included (docs/images.md: mirrored copies are duplicates), and no group ever holds
// two distinct pictures; a pipeline without stages gives back every member byte for byte, as
// Python's tarfile reads them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// Builds the corpus once (tests run as separate processes, so one test does both checks).
bool make_corpus(const TempDir& dir, std::string* log) {
  std::string build = fs::path(kWinnow).parent_path().string();
  return run_command("WINNOW_BUILD=" + build + " " + kSource + "/scripts/make_image_corpus " +
                         dir.file("corpus") + " 160",
                     log) == 0;
}

struct Truth {
  std::string family;
  std::string variant;
};

void check_round_trip(const TempDir& corpus);

// report.html shows a sample of kept and near-duplicate pictures as embedded JPEGs, and the
// same sample with one thread as with two (it is chosen by a seeded hash of each item's key).
void check_report_pictures(const TempDir& corpus) {
  auto pictures = [](const std::string& html) {
    size_t at = html.find("What was kept and dropped, as pictures");
    return at == std::string::npos ? std::string() : html.substr(at);
  };
  std::string two = pictures(read_file(corpus.file("out/report.html")));
  EXPECT_THAT(two, HasSubstr("<h3>kept</h3>"));
  EXPECT_THAT(two, HasSubstr("<h3>image_dedup/near_duplicate</h3>"));
  EXPECT_THAT(two, HasSubstr("src=\"data:image/jpeg;base64,/9j/"));  // a JPEG's SOI marker
  std::string out;
  ASSERT_EQ(winnow("run " + kSource + "/examples/images.yaml -i " + corpus.file("corpus/shards") +
                       " -o " + corpus.file("out1") + " --no-progress --threads 1",
                   &out),
            0)
      << out;
  EXPECT_EQ(pictures(read_file(corpus.file("out1/report.html"))), two);
}

TEST(ImageCorpus, PlantedNearDuplicatesFoundDistinctNeverMergedAndRoundTripIsByteIdentical) {
  TempDir corpus;
  std::string log;
  ASSERT_TRUE(make_corpus(corpus, &log)) << log;
  check_round_trip(corpus);
  std::map<std::string, Truth> truth;
  for (const std::string& line : split_lines(read_file(corpus.file("corpus/truth.tsv")))) {
    std::vector<std::string> cols;
    std::stringstream s(line);
    for (std::string col; std::getline(s, col, '\t');) cols.push_back(col);
    ASSERT_GE(cols.size(), 3u) << line;
    truth[cols[0]] = {cols[1], cols[2]};
  }
  ASSERT_GE(truth.size(), 300u) << "a few hundred samples expected";
  std::string out;
  ASSERT_EQ(winnow("run " + kSource + "/examples/images.yaml -i " + corpus.file("corpus/shards") +
                       " -o " + corpus.file("out") + " --no-progress --threads 2",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  check_report_pictures(corpus);
  // What left before image_dedup (size filter, exact dedup).
  std::set<std::string> dropped_before;
  std::regex drop(R"re("id":"([^"]+)".*"winnow_drop":\{"stage":"([^"]+)")re");
  for (const auto& e : fs::directory_iterator(corpus.file("out/rejected"))) {
    for (const std::string& line : split_lines(read_decompressed(e.path().string()))) {
      std::smatch m;
      ASSERT_TRUE(std::regex_search(line, m, drop)) << line;
      if (m[2] == "image_size_filter" || m[2] == "image_exact_dedup") dropped_before.insert(m[1]);
    }
  }
  std::map<std::string, uint64_t> component;  // id -> its group
  std::regex row(R"re("id":"([^"]+)","component":(\d+))re");
  for (const std::string& line :
       split_lines(read_file(corpus.file("out/global/image_dedup/duplicates.jsonl")))) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(line, m, row)) << line;
    component[m[1]] = std::stoull(m[2]);
  }
  // Distinct pictures never merged: one family per group.
  std::map<uint64_t, std::set<std::string>> families;
  for (const auto& [id, c] : component) families[c].insert(truth.at(id).family);
  for (const auto& [c, f] : families)
    EXPECT_EQ(f.size(), 1u) << "group " << c << " merges families";
  // Planted copies found: grouped with their original, when both reached image_dedup.
  std::map<std::string, std::pair<int, int>> by_variant;  // found, planted
  int found = 0, planted = 0;
  std::string missed;
  for (const auto& [id, t] : truth) {
    if (t.variant == "original") continue;
    std::string original = id.substr(0, id.find('_'));
    if (dropped_before.count(id) || dropped_before.count(original)) continue;
    ++planted;
    ++by_variant[t.variant].second;
    if (component.count(id) && component.count(original) && component[id] == component[original]) {
      ++found;
      ++by_variant[t.variant].first;
    } else {
      missed += " " + id;
    }
  }
  ASSERT_GE(planted, 150);
  EXPECT_GE(found * 100, planted * 99) << found << " of " << planted << "; missed:" << missed;
  for (const auto& [variant, counts] : by_variant) {
    std::cout << "  " << variant << ": " << counts.first << " of " << counts.second << " found\n";
  }
  if (!missed.empty()) std::cout << "  missed:" << missed << "\n";
}

// A pipeline without stages gives back every member of every shard, as Python's tarfile reads
// them: name, mtime, mode and bytes, in order.
void check_round_trip(const TempDir& corpus) {
  TempDir dir;
  write_file(dir.file("p.yaml"), "input: {format: webdataset}\n");
  std::string out;
  ASSERT_EQ(winnow("run " + dir.file("p.yaml") + " -i " + corpus.file("corpus/shards") + " -o " +
                       dir.file("out") + " --no-progress --threads 2",
                   &out),
            0)
      << out;
  write_file(dir.file("cmp.py"),
             "import sys, tarfile\n"
             "def members(path):\n"
             "    with tarfile.open(path) as t:\n"
             "        return [(m.name, m.mtime, m.mode, t.extractfile(m).read()) for m in t]\n"
             "src, dst = sys.argv[1], sys.argv[2]\n"
             "n = 0\n"
             "for i in range(4):\n"
             "    a = members(f'{src}/images-{i:04d}.tar')\n"
             "    b = members(f'{dst}/images-{i:04d}-00000.tar')\n"
             "    assert a == b, f'shard {i} differs'\n"
             "    n += len(a)\n"
             "print(f'{n} members identical')\n");
  ASSERT_EQ(run_command("/usr/bin/python3 " + dir.file("cmp.py") + " " +
                            corpus.file("corpus/shards") + " " + dir.file("out/files"),
                        &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("members identical"));
}

}  // namespace
}  // namespace winnow::testing
