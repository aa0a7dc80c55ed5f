#include "models/onnx_text_embedder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <thread>

#include "models/onnx_test_models.h"
#include "models/wordpiece_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// A model folder as optimum exports one: model.onnx (a small BERT with seeded weights), a
// WordPiece tokenizer.json truncating at 48 tokens, config.json.
class OnnxTextEmbedderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    texts_ = new std::vector<std::string>(multilingual_paragraphs(6));
    texts_->push_back("");
    texts_->push_back("short");
    std::vector<std::string> vocabulary = vocabulary_from(*texts_);
    std::string json = wordpiece_json(vocabulary, {.lowercase = true, .truncation = 48});
    for (const char* name : {"bert", "pooled"}) {
      std::string folder = dir_->file(name);
      build_bert_model(folder, "--vocab " + std::to_string(vocabulary.size() + 5) +
                                   " --max-positions 64 --seed 11" +
                                   (std::string(name) == "pooled" ? " --head pooler" : ""));
      write_file(folder + "/tokenizer.json", json);
    }
    ids_ = new std::vector<std::vector<int64_t>>(
        hf_reference_ids(dir_->path(), dir_->file("bert/tokenizer.json"), *texts_));
    reference_ = new ReferenceOutputs(reference_outputs(dir_->file("pooled"), *ids_));
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete texts_;
    delete ids_;
    delete reference_;
  }
  static std::vector<float> normalised(const std::vector<double>& v) {
    double norm = 0;
    for (double x : v) norm += x * x;
    std::vector<float> out;
    for (double x : v) out.push_back(static_cast<float>(x / std::sqrt(norm)));
    return out;
  }
  static std::vector<std::string_view> views() {
    return std::vector<std::string_view>(texts_->begin(), texts_->end());
  }
  static std::unique_ptr<OnnxTextEmbedder> load(const std::string& name,
                                                OnnxTextEmbedderOptions options = {}) {
    auto embedder = OnnxTextEmbedder::load(dir_->file(name), options);
    if (!embedder.is_ok()) throw std::runtime_error(embedder.status().message());
    return std::move(embedder).value();
  }
  static TempDir* dir_;
  static std::vector<std::string>* texts_;
  static std::vector<std::vector<int64_t>>* ids_;
  static ReferenceOutputs* reference_;
};
TempDir* OnnxTextEmbedderTest::dir_ = nullptr;
std::vector<std::string>* OnnxTextEmbedderTest::texts_ = nullptr;
std::vector<std::vector<int64_t>>* OnnxTextEmbedderTest::ids_ = nullptr;
ReferenceOutputs* OnnxTextEmbedderTest::reference_ = nullptr;

// HF's token ids through numpy's forward pass, pooled and normalised, against ours.
TEST_F(OnnxTextEmbedderTest, EmbeddingsMatchHfIdsThroughNumpy) {
  ASSERT_GE(texts_->size(), 40u);
  for (Pooling pooling : {Pooling::kMean, Pooling::kCls, Pooling::kModel}) {
    const char* key = pooling == Pooling::kMean  ? "mean"
                      : pooling == Pooling::kCls ? "cls"
                                                 : "pooler";
    SCOPED_TRACE(key);
    auto embedder = load("pooled", {.pooling = pooling});
    std::vector<float> out;
    Status status = embedder->embed(views(), out);
    ASSERT_TRUE(status.is_ok()) << status.message();
    ASSERT_EQ(out.size(), texts_->size() * 16);
    size_t truncated = 0;
    for (size_t d = 0; d < texts_->size(); ++d) {
      std::vector<int64_t> ids;
      embedder->tokenize((*texts_)[d], ids);
      ASSERT_EQ(ids, (*ids_)[d]) << d;
      truncated += ids.size() == 48;
      std::vector<float> expected = normalised((*reference_)[d].at(key));
      for (size_t h = 0; h < 16; ++h) {
        ASSERT_NEAR(out[d * 16 + h], expected[h], 1e-4) << "document " << d << " [" << h << "]";
      }
    }
    EXPECT_GT(truncated, 10u);
  }
}

// Length-aware batches of any budget, fixed batches of any size and one document at a time
// give the same vectors, in input order.
TEST_F(OnnxTextEmbedderTest, BatchingDoesNotChangeTheVectors) {
  std::vector<float> alone;
  ASSERT_TRUE(load("bert", {.batching = {.by_length = false, .max_batch_size = 1}})
                  ->embed(views(), alone)
                  .is_ok());
  for (BatchPlanOptions batching :
       {BatchPlanOptions{.by_length = true, .max_batch_size = 64, .max_batch_tokens = 8192},
        BatchPlanOptions{
            .by_length = true, .max_batch_size = 5, .max_batch_tokens = 100, .window = 7},
        BatchPlanOptions{.by_length = false, .max_batch_size = 32}}) {
    std::vector<float> out;
    ASSERT_TRUE(load("bert", {.batching = batching})->embed(views(), out).is_ok());
    ASSERT_EQ(out.size(), alone.size());
    for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], alone[i], 1e-5) << i;
  }
}

// Workers share one embedder: concurrent calls give what a call alone gives, bit for bit.
TEST_F(OnnxTextEmbedderTest, ConcurrentCallsAreDeterministic) {
  auto embedder = load("bert");
  std::vector<float> alone;
  ASSERT_TRUE(embedder->embed(views(), alone).is_ok());
  std::vector<int> mismatches(3, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 3; ++repeat) {
        std::vector<float> out;
        mismatches[t] += !embedder->embed(views(), out).is_ok() || out != alone;
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST_F(OnnxTextEmbedderTest, BadModelFoldersAreClearErrors) {
  namespace fs = std::filesystem;
  auto error_of = [&](const std::string& folder, OnnxTextEmbedderOptions options = {}) {
    auto embedder = OnnxTextEmbedder::load(folder, options);
    EXPECT_FALSE(embedder.is_ok()) << folder;
    return embedder.is_ok() ? std::string() : embedder.status().message();
  };
  EXPECT_THAT(error_of(dir_->file("nowhere")), HasSubstr("does not exist"));
  // No tokenizer.json.
  fs::create_directories(dir_->file("no_tokenizer"));
  fs::copy_file(dir_->file("bert/model.onnx"), dir_->file("no_tokenizer/model.onnx"));
  EXPECT_THAT(error_of(dir_->file("no_tokenizer")), HasSubstr("no_tokenizer/tokenizer.json"));
  // A corrupt model.onnx.
  fs::create_directories(dir_->file("corrupt"));
  fs::copy_file(dir_->file("bert/tokenizer.json"), dir_->file("corrupt/tokenizer.json"));
  write_file(dir_->file("corrupt/model.onnx"), "\x08\x07garbage");
  EXPECT_THAT(error_of(dir_->file("corrupt")), HasSubstr("cannot load"));
  // An input winnow cannot feed.
  build_bert_model(dir_->file("odd_input"), "--input-ids-name ids");
  fs::copy_file(dir_->file("bert/tokenizer.json"), dir_->file("odd_input/tokenizer.json"));
  std::string odd = error_of(dir_->file("odd_input"));
  EXPECT_THAT(odd, HasSubstr("input ids is not one winnow can feed"));
  EXPECT_THAT(odd, HasSubstr("its inputs are: ids int64[?,?]"));
  // Pooling `model` on a model without a [batch, hidden] output.
  EXPECT_THAT(error_of(dir_->file("bert"), {.pooling = Pooling::kModel}),
              HasSubstr("no float [batch, hidden] output for pooling 'model'"));
  if (!OnnxSession::has_cuda()) {
    EXPECT_THAT(error_of(dir_->file("bert"), {.session = {.gpu = true}}),
                HasSubstr("no CUDA execution provider"));
  }
}

}  // namespace
}  // namespace winnow::testing
