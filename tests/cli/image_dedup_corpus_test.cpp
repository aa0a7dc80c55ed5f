// image_dedup on the corpus scripts/make_image_dedup_corpus makes (issue 30): real wallpapers,
// photographs and textures with planted copies (resized to 60 %, JPEG at quality 55, cropped
// by 3 %, mirrored), and distinct pictures that defeat pHash alone (flat pictures of different
// colours, which all hash alike; quarters of one texture; light and dark palettes of one
// drawing; a colour wheel, a retina photograph and wood and truchet wallpapers that chain
// within pHash's threshold). Checked against the corpus's truth, through examples/images.yaml:
//   - no group holds two distinct pictures (pHash alone with connected components merged a
//     colour wheel, a retina photograph and three wallpapers, and every flat picture);
//   - every planted copy is grouped with its original, except those of the "faint" pictures
//     (icons on a flat colour, grey levels varying by under 8): their pHash is noise, and
//     image_dedup refuses to match it, by design;
//   - with mirror: false, no mirrored copy is matched unless pHash can hardly tell the picture
//     from its mirror image (within 10 bits: vertical stripes), and every other copy still is.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;

struct Truth {
  std::string family;
  std::string variant;
  std::string kind;
  int mirror_distance = 0;  // pHash bits between the picture and its mirror image
};

std::map<std::string, Truth> read_truth(const std::string& path) {
  std::map<std::string, Truth> truth;
  for (const std::string& line : split_lines(read_file(path))) {
    std::vector<std::string> cols;
    std::stringstream s(line);
    for (std::string col; std::getline(s, col, '\t');) cols.push_back(col);
    if (cols.size() < 6) {
      ADD_FAILURE() << "truth line " << line;
      continue;
    }
    truth[cols[0]] = {cols[1], cols[2], cols[3], std::stoi(cols[4])};
  }
  return truth;
}

// Item id -> its group in OUT/global/<stage>/duplicates.jsonl.
std::map<std::string, uint64_t> read_groups(const std::string& table) {
  std::map<std::string, uint64_t> group;
  std::regex row(R"re("id":"([^"]+)","component":(\d+))re");
  for (const std::string& line : split_lines(read_file(table))) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) {
      ADD_FAILURE() << line;
      continue;
    }
    group[m[1]] = std::stoull(m[2]);
  }
  return group;
}

std::string original_of(const std::string& id) { return id.substr(0, id.find('_')); }

std::string run(const TempDir& dir, const std::string& pipeline, const std::string& out_name) {
  std::string out;
  EXPECT_EQ(winnow("run " + pipeline + " -i " + dir.file("corpus/shards") + " -o " +
                       dir.file(out_name) + " --no-progress --threads 2",
                   &out),
            0)
      << out;
  EXPECT_NE(out.find("reconciled"), std::string::npos) << out;
  return dir.file(out_name + "/global/image_dedup/duplicates.jsonl");
}

bool grouped_with_original(const std::map<std::string, uint64_t>& group, const std::string& id) {
  auto copy = group.find(id), original = group.find(original_of(id));
  return copy != group.end() && original != group.end() && copy->second == original->second;
}

void check_example_pipeline(const TempDir& dir, const std::map<std::string, Truth>& truth) {
  const auto group = read_groups(run(dir, kSource + "/examples/images.yaml", "example"));
  std::map<uint64_t, std::set<std::string>> families;
  for (const auto& [id, g] : group) families[g].insert(truth.at(id).family);
  for (const auto& [g, f] : families) {
    EXPECT_EQ(f.size(), 1u) << "group " << g << " merges " << f.size() << " distinct pictures";
  }
  int planted = 0, found = 0, faint = 0, faint_found = 0;
  std::set<std::string> kinds;
  for (const auto& [id, t] : truth) {
    if (t.variant == "original") continue;
    const bool merged = grouped_with_original(group, id);
    if (t.kind == "faint") {
      ++faint;
      faint_found += merged;
      continue;
    }
    ++planted;
    found += merged;
    kinds.insert(t.kind);
    EXPECT_TRUE(merged) << t.variant << " copy " << id << " (" << t.kind
                        << ") not grouped with its original";
  }
  EXPECT_GE(planted, 180);
  EXPECT_EQ(kinds, (std::set<std::string>{"photograph", "texture", "wallpaper"}));
  std::cout << "  planted copies found: " << found << " of " << planted << "; of faint pictures "
            << faint_found << " of " << faint << "\n";
}

void check_without_mirror(const TempDir& dir, const std::map<std::string, Truth>& truth) {
  write_file(dir.file("no_mirror.yaml"),
             "input: {format: webdataset}\n"
             "stages:\n"
             "  - {stage: image_dedup, mirror: false}\n");
  const auto group = read_groups(run(dir, dir.file("no_mirror.yaml"), "no_mirror"));
  int asymmetric = 0;
  for (const auto& [id, t] : truth) {
    if (t.variant == "original" || t.kind == "faint") continue;
    const bool merged = grouped_with_original(group, id);
    if (t.variant != "mirrored") {
      EXPECT_TRUE(merged) << t.variant << " copy " << id << " not grouped with its original";
    } else if (t.mirror_distance > 10) {
      ++asymmetric;
      EXPECT_FALSE(merged) << "mirrored copy " << id << " matched with mirror: false";
    }
  }
  EXPECT_GE(asymmetric, 30);
}

// One test builds the corpus once (tests run as separate processes).
TEST(ImageDedupCorpus, EveryPlantedCopyMergedNoDistinctPicturesMirroredAsConfigured) {
  TempDir dir;
  std::string log;
  const std::string build = fs::path(kWinnow).parent_path().string();
  ASSERT_EQ(run_command("WINNOW_BUILD=" + build + " " + kSource +
                            "/scripts/make_image_dedup_corpus " + dir.file("corpus"),
                        &log),
            0)
      << log;
  const auto truth = read_truth(dir.file("corpus/truth.tsv"));
  ASSERT_GE(truth.size(), 200u);
  check_example_pipeline(dir, truth);
  check_without_mirror(dir, truth);
}

}  // namespace
}  // namespace winnow::testing
