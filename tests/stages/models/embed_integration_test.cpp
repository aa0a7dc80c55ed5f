// End to end: `embed` through the winnow binary writes each kept document's vector as a JSON
// array field, the same whatever the thread count.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>

#include "models/onnx_test_models.h"
#include "models/wordpiece_test_models.h"
#include "stages/missing_model_check.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

TEST(EmbedIntegration, HashedVectorsAreWrittenAsJsonArrays) {
  TempDir dir;
  std::string input;
  for (int i = 0; i < 300; ++i) {
    input += "{\"id\":" + std::to_string(i) + ",\"text\":\"document number " +
             std::to_string(i % 37) + " about " + (i % 2 ? "cats" : "ships") + "\"}\n";
  }
  write_file(dir.file("in.jsonl"), input);
  std::string pipeline = pipeline_file(dir, R"(stages:
  - stage: embed
    dimensions: 16
    field: vec
)");
  std::string out;
  for (const char* threads : {"1", "2"}) {
    ASSERT_EQ(winnow("run " + pipeline + " -i " + dir.file("in.jsonl") + " -o " +
                         dir.file(std::string("out") + threads) + " -t " + threads,
                     &out),
              0)
        << out;
  }
  std::string one = read_decompressed(dir.file("out1/in.jsonl.zst"));
  EXPECT_EQ(one, read_decompressed(dir.file("out2/in.jsonl.zst")));
  EXPECT_EQ(stats_total(dir.file("out1/stats.json"), "kept"), 300u);
  simdjson::dom::parser parser;
  size_t lines = 0;
  for (const std::string& line : split_lines(one)) {
    if (line.empty()) continue;
    ++lines;
    simdjson::dom::array vec = parser.parse(line)["vec"].get_array();
    double norm = 0;
    size_t n = 0;
    for (double v : vec) {
      norm += v * v;
      ++n;
    }
    EXPECT_EQ(n, 16u);
    EXPECT_NEAR(norm, 1.0, 1e-5);
  }
  EXPECT_EQ(lines, 300u);
}

// A model folder (seeded BERT, WordPiece tokenizer.json): 16-wide vectors, the same with 1 or
// 2 threads, with either batching, with a tokenize stage before embed and under a memory
// budget.
TEST(EmbedIntegration, ModelVectorsAreWrittenAsJsonArrays) {
  TempDir dir;
  std::vector<std::string> texts = multilingual_paragraphs(10);
  std::string input;
  for (size_t i = 0; i < texts.size(); ++i) {
    input += "{\"id\":" + std::to_string(i) + ",\"text\":";
    append_json_string(input, texts[i]);
    input += "}\n";
  }
  write_file(dir.file("in.jsonl"), input);
  std::vector<std::string> vocabulary = vocabulary_from(texts);
  build_bert_model(dir.file("model"),
                   "--vocab " + std::to_string(vocabulary.size() + 5) + " --max-positions 512");
  write_file(dir.file("model/tokenizer.json"), wordpiece_json(vocabulary, {}));
  std::string out;
  std::vector<std::string> outputs;
  // The fourth run tokenises in a tokenize stage first: the same bytes out, no ids written. The
  // fifth batches by length under a memory budget (the model fitted at load).
  for (const auto& [threads, batching, tokenize] :
       std::vector<std::tuple<std::string, std::string, bool>>{
           {"1", "length", false},
           {"2", "length", false},
           {"2", "fixed", false},
           {"2", "length", true},
           {"2", "length\n    batch_memory_mb: 50", false}}) {
    std::string stages = "stages:\n";
    if (tokenize) stages += "  - stage: tokenize\n    model: " + dir.file("model") + "\n";
    stages += "  - stage: embed\n    model: " + dir.file("model") + "\n    batching: " + batching +
              "\n    batch_size: 7\n";
    std::string pipeline = pipeline_file(dir, stages);
    std::string target = dir.file("out" + std::to_string(outputs.size()));
    ASSERT_EQ(winnow("run " + pipeline + " -i " + dir.file("in.jsonl") + " -o " + target + " -t " +
                         threads,
                     &out),
              0)
        << out;
    EXPECT_THAT(out, ::testing::HasSubstr("runs on the CPU"));
    if (outputs.size() == 4) {
      EXPECT_THAT(out, ::testing::HasSubstr("a 50 MB budget holds"));
    }
    outputs.push_back(read_decompressed(target + "/in.jsonl.zst"));
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  EXPECT_EQ(outputs[3], outputs[1]);
  simdjson::dom::parser parser;
  std::vector<std::string> lines = split_lines(outputs[0]);
  for (size_t other : {2, 4}) {
    std::vector<std::string> others = split_lines(outputs[other]);
    ASSERT_EQ(lines.size(), others.size());
    size_t documents = 0;
    for (size_t l = 0; l < lines.size(); ++l) {
      if (lines[l].empty()) continue;
      ++documents;
      std::vector<double> a, b;
      for (double v : parser.parse(lines[l])["embedding"].get_array()) a.push_back(v);
      for (double v : parser.parse(others[l])["embedding"].get_array()) b.push_back(v);
      ASSERT_EQ(a.size(), 16u);
      ASSERT_EQ(b.size(), 16u);
      for (size_t h = 0; h < 16; ++h) EXPECT_NEAR(a[h], b[h], 1e-5);
    }
    EXPECT_EQ(documents, texts.size());
  }
  // A budget that is not -1, 0 or a size is an error naming the key.
  std::string pipeline =
      pipeline_file(dir, "stages:\n  - stage: embed\n    model: " + dir.file("model") +
                             "\n    batch_memory_mb: -5\n");
  EXPECT_EQ(
      winnow("run " + pipeline + " -i " + dir.file("in.jsonl") + " -o " + dir.file("bad"), &out), 2)
      << out;
  EXPECT_THAT(out, ::testing::HasSubstr("batch_memory_mb"));
}

TEST(EmbedIntegration, BadModelsFailTheRunAtLoad) {
  expect_missing_model_is_setup_error("  - stage: embed\n    model: /nonexistent/model\n",
                                      "p.yaml:3", "/nonexistent/model");
  TempDir dir;
  std::filesystem::create_directories(dir.file("broken"));
  write_file(dir.file("broken/model.onnx"), "not a model");
  write_file(dir.file("broken/tokenizer.json"), wordpiece_json({"a"}, {}));
  expect_missing_model_is_setup_error("  - stage: embed\n    model: " + dir.file("broken") + "\n",
                                      "p.yaml:3", dir.file("broken/model.onnx"));
}

}  // namespace
}  // namespace winnow::testing
