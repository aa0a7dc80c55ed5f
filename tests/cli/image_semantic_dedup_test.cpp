// examples/images_semantic.yaml on the image corpus (scripts/make_image_corpus), with a small
// seeded image encoder (tests/models/vision_test_model.py --spatial) in place of CLIP: the
// removal set equals the all-pairs numpy reference (tests/cli/semantic_reference.py) on the
// embeddings winnow computed, every resized or re-encoded planted copy (at cosine >= 0.98 to
// its original with this model) goes or takes its original's place, and the output is the
// same with 1 and 2 threads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "models/vision_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The example with `model:` pointing at `model` and nothing else changed.
std::string example_with_model(const TempDir& dir, const std::string& model,
                               const std::string& extra_stage = "") {
  std::string yaml = read_file(kSource + "/examples/images_semantic.yaml");
  yaml = std::regex_replace(yaml, std::regex("model: models/clip-vit-large-patch14"),
                            "model: " + model);
  if (!extra_stage.empty()) {
    yaml = std::regex_replace(yaml, std::regex("  - stage: semantic_dedup"),
                              extra_stage + "  - stage: semantic_dedup");
  }
  const std::string path = dir.file("pipeline.yaml");
  write_file(path, yaml);
  return path;
}

// Every line of the kept metadata tables, shard by shard in name order (the input's order).
std::string kept_records(const std::string& out) {
  std::vector<std::string> tables;
  for (const auto& e : fs::directory_iterator(out)) {
    if (e.path().extension() == ".zst") tables.push_back(e.path().string());
  }
  std::sort(tables.begin(), tables.end());
  std::string all;
  for (const auto& t : tables) all += read_decompressed(t);
  return all;
}

TEST(ImageSemanticDedup, ExampleMatchesTheReferenceAndRemovesPlantedCopies) {
  TempDir dir;
  std::string log;
  const std::string build = fs::path(kWinnow).parent_path().string();
  ASSERT_EQ(run_command("WINNOW_BUILD=" + build + " " + kSource + "/scripts/make_image_corpus " +
                            dir.file("corpus") + " 160",
                        &log),
            0)
      << log;
  vision_script("encoder " + dir.file("model") + " --spatial --size 64 --embed 128");
  const std::string shards = dir.file("corpus/shards");

  // The embeddings alone (semantic_dedup left out), for the reference.
  std::string yaml = read_file(example_with_model(dir, dir.file("model")));
  yaml = yaml.substr(0, yaml.find("  - stage: semantic_dedup"));
  write_file(dir.file("embed_only.yaml"), yaml);
  ASSERT_EQ(winnow("run " + dir.file("embed_only.yaml") + " -i " + shards + " -o " +
                       dir.file("embedded") + " --no-progress -q",
                   &log),
            0)
      << log;
  write_file(dir.file("embedded.jsonl"), kept_records(dir.file("embedded")));

  const std::string pipeline = example_with_model(dir, dir.file("model"));
  ASSERT_EQ(winnow("run " + pipeline + " -i " + shards + " -o " + dir.file("out1") +
                       " --no-progress --threads 1",
                   &log),
            0)
      << log;
  EXPECT_THAT(log, HasSubstr("reconciled"));
  EXPECT_EQ(run_command("/usr/bin/python3 " + kSource + "/tests/cli/semantic_reference.py " +
                            dir.file("embedded.jsonl") + " " + dir.file("out1") + " hard",
                        &log),
            0)
      << log;

  // Planted copies: every resized or re-encoded copy is removed, or its original is (NeMo's
  // rule keeps the better-ranked of the two).
  std::map<std::string, std::pair<std::string, std::string>> truth;  // key -> family, variant
  for (const std::string& line : split_lines(read_file(dir.file("corpus/truth.tsv")))) {
    std::stringstream s(line);
    std::string key, family, variant;
    std::getline(s, key, '\t');
    std::getline(s, family, '\t');
    std::getline(s, variant, '\t');
    truth[key] = {family, variant};
  }
  std::set<std::string> removed;
  std::regex id(R"re("id":"([^"]+)")re");
  for (const std::string& line :
       split_lines(read_file(dir.file("out1/global/semantic_dedup/duplicates.jsonl")))) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(line, m, id)) << line;
    removed.insert(m[1]);
  }
  std::map<std::string, std::string> original_of_family;
  for (const auto& [key, fv] : truth) {
    if (fv.second == "original") original_of_family[fv.first] = key;
  }
  size_t planted = 0;
  for (const auto& [key, fv] : truth) {
    if (fv.second != "resized" && fv.second != "reencoded") continue;
    ++planted;
    EXPECT_TRUE(removed.count(key) || removed.count(original_of_family[fv.first]))
        << key << " and its original both kept";
  }
  EXPECT_GE(planted, 80u);

  // Two threads: the same bytes.
  ASSERT_EQ(winnow("run " + pipeline + " -i " + shards + " -o " + dir.file("out2") +
                       " --no-progress -q --threads 2",
                   &log),
            0)
      << log;
  EXPECT_EQ(kept_records(dir.file("out1")), kept_records(dir.file("out2")));
  EXPECT_EQ(read_file(dir.file("out1/global/semantic_dedup/duplicates.jsonl")),
            read_file(dir.file("out2/global/semantic_dedup/duplicates.jsonl")));
}

}  // namespace
}  // namespace winnow::testing
