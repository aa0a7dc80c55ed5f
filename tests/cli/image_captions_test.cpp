// Captions through the text stages, and the CLIP score, on the image corpus
// (scripts/make_image_corpus: every sample has a .txt caption): a WebDataset sample's text is
// its caption, so text_length filters captions (checked against the captions Python's tarfile
// reads); embed with a text model (a small seeded BERT standing in for CLIP's text tower)
// embeds them, image_embed embeds the pictures into the same width, and embedding_similarity
// records their cosine (checked against the two vectors written out) and drops the low ones.
// The caption members are written back unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "models/onnx_test_models.h"
#include "models/vision_test_models.h"
#include "models/wordpiece_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// key -> caption, as Python's tarfile reads the shards.
std::map<std::string, std::string> captions_of(const std::string& shards, const TempDir& dir) {
  const std::string script = R"(
import json, os, sys, tarfile
out = {}
for name in sorted(os.listdir(sys.argv[1])):
    with tarfile.open(os.path.join(sys.argv[1], name)) as tar:
        for m in tar.getmembers():
            if m.name.endswith(".txt"):
                out[m.name[:-4]] = tar.extractfile(m).read().decode("utf-8")
json.dump(out, open(sys.argv[2], "w"))
)";
  write_file(dir.file("captions.py"), script);
  std::string log;
  EXPECT_EQ(run_command("/usr/bin/python3 " + dir.file("captions.py") + " " + shards + " " +
                            dir.file("captions.json"),
                        &log),
            0)
      << log;
  std::map<std::string, std::string> out;
  simdjson::dom::parser parser;
  for (auto field : parser.load(dir.file("captions.json")).get_object()) {
    out[std::string(field.key)] = std::string(field.value.get_string().value());
  }
  return out;
}

TEST(ImageCaptions, TextStagesReadCaptionsAndEmbeddingSimilarityIsTheCosine) {
  TempDir dir;
  std::string log;
  const std::string build = fs::path(kWinnow).parent_path().string();
  ASSERT_EQ(run_command("WINNOW_BUILD=" + build + " " + kSource + "/scripts/make_image_corpus " +
                            dir.file("corpus") + " 60",
                        &log),
            0)
      << log;
  const std::string shards = dir.file("corpus/shards");
  const auto captions = captions_of(shards, dir);
  ASSERT_GE(captions.size(), 100u);

  // The two towers, into 12 dimensions each.
  vision_script("encoder " + dir.file("vision") + " --size 32 --embed 12");
  std::vector<std::string> texts;
  for (const auto& [key, caption] : captions) texts.push_back(caption);
  const std::vector<std::string> vocabulary = vocabulary_from(texts);
  build_bert_model(dir.file("text"), "--vocab " + std::to_string(vocabulary.size() + 5) +
                                         " --hidden 12 --heads 2 --max-positions 64 --head pooler");
  write_file(dir.file("text/tokenizer.json"),
             wordpiece_json(vocabulary, {.lowercase = true, .truncation = 32}));

  // Captions of at least 20 code points are kept (all ASCII here: code points = bytes).
  const size_t min_chars = 20;
  const std::string yaml = R"(input:
  paths: [x]
  format: webdataset
output:
  path: y
  format: jsonl
seed: 1
stages:
  - stage: text_length
    min_chars: 20
  - stage: embed
    model: )" + dir.file("text") + R"(
    pooling: model
    field: caption_embedding
  - stage: image_embed
    model: )" + dir.file("vision") + R"(
  - stage: embedding_similarity
    min_similarity: 0
)";
  ASSERT_EQ(winnow("run " + pipeline_file(dir, yaml) + " -i " + shards + " -o " + dir.file("out") +
                       " --no-progress",
                   &log),
            0)
      << log;
  EXPECT_THAT(log, HasSubstr("reconciled"));

  simdjson::dom::parser parser;
  size_t kept = 0, low = 0, short_captions = 0;
  for (const auto& e : fs::directory_iterator(dir.file("out"))) {
    // The metadata tables (not metrics.jsonl).
    if (e.path().extension() != ".jsonl" || e.path().filename().string().rfind("images-", 0)) {
      continue;
    }
    for (const std::string& line : split_lines(read_file(e.path().string()))) {
      simdjson::dom::element row = parser.parse(line);
      const std::string key(row["key"].get_string().value());
      ASSERT_TRUE(captions.count(key)) << key;
      EXPECT_GE(captions.at(key).size(), min_chars) << key;
      std::vector<double> a, b;
      for (double v : row["embedding"].get_array()) a.push_back(v);
      for (double v : row["caption_embedding"].get_array()) b.push_back(v);
      ASSERT_EQ(a.size(), 12u);
      ASSERT_EQ(b.size(), 12u);
      double dot = 0, aa = 0, bb = 0;
      for (size_t d = 0; d < 12; ++d) {
        dot += a[d] * b[d];
        aa += a[d] * a[d];
        bb += b[d] * b[d];
      }
      const double similarity = row["embedding_similarity"].get_double().value();
      EXPECT_NEAR(similarity, dot / std::sqrt(aa * bb), 1e-6) << key;
      EXPECT_GE(similarity, 0.0) << key;
      ++kept;
    }
  }
  for (const auto& e : fs::directory_iterator(dir.file("out/rejected"))) {
    for (const std::string& line : split_lines(read_decompressed(e.path().string()))) {
      simdjson::dom::element row = parser.parse(line);
      const std::string key(row["key"].get_string().value());
      const std::string_view stage = row["winnow_drop"]["stage"].get_string().value();
      if (stage == "text_length") {
        EXPECT_LT(captions.at(key).size(), min_chars) << key;
        ++short_captions;
      } else {
        EXPECT_EQ(stage, "embedding_similarity") << line;
        EXPECT_LT(row["winnow_drop"]["score"].get_double().value(), 0.0) << key;
        ++low;
      }
    }
  }
  size_t expected_short = 0;
  for (const auto& [key, caption] : captions) expected_short += caption.size() < min_chars;
  EXPECT_EQ(short_captions, expected_short);
  EXPECT_GT(expected_short, 0u);
  EXPECT_GT(kept, 0u);
  EXPECT_GT(low, 0u);  // the seeded models put some pairs below 0
  EXPECT_EQ(kept + low + short_captions, captions.size());
}

}  // namespace
}  // namespace winnow::testing
