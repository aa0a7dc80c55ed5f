#include "models/onnx_text_embedder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
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

// A memory budget caps each batch's rows by the fitted memory model (here: 4 rows of 48 tokens),
// and the vectors stay those of one document at a time.
TEST_F(OnnxTextEmbedderTest, MemoryBudgetCapsBatchRowsAndKeepsTheVectors) {
  std::vector<float> alone;
  ASSERT_TRUE(load("bert", {.batching = {.by_length = false, .max_batch_size = 1}})
                  ->embed(views(), alone)
                  .is_ok());
  auto fit = text_model_memory(dir_->file("bert/model.onnx"), {}, "last_hidden_state", 48);
  ASSERT_TRUE(fit.is_ok()) << fit.status().message();
  const double budget = fit->predict(4, 48) + 1;
  BatchPlanOptions batching{.by_length = true, .max_batch_size = 64, .max_batch_tokens = 1 << 20};
  auto embedder = load("bert", {.batching = batching, .batch_memory = budget});
  ASSERT_TRUE(embedder->memory_model().has_value());
  EXPECT_EQ(embedder->memory_model()->b, fit->b);
  // The plan the embedder makes: rows capped at max_rows of each batch's longest.
  std::vector<size_t> lengths;
  std::vector<int64_t> ids;
  for (std::string_view text : views()) {
    embedder->tokenize(text, ids);
    lengths.push_back(ids.size());
  }
  batching.row_limit = [&](size_t longest) { return fit->max_rows(longest, budget); };
  auto batches = plan_batches(lengths, batching);
  size_t full_length_batches = 0;
  for (const auto& batch : batches) {
    size_t longest = 0;
    for (size_t i : batch) longest = std::max(longest, lengths[i]);
    if (longest == 48) {
      EXPECT_LE(batch.size(), 4u);
      ++full_length_batches;
    }
  }
  EXPECT_GE(full_length_batches, 3u);
  std::vector<float> out;
  ASSERT_TRUE(embedder->embed(views(), out).is_ok());
  ASSERT_EQ(out.size(), alone.size());
  for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], alone[i], 1e-5) << i;
  // A budget under one row of the longest length is an error at load, not at run time.
  // (Half a row's share over the fixed part.)
  auto tiny = OnnxTextEmbedder::load(dir_->file("bert"),
                                     {.batch_memory = (fit->a + fit->predict(1, 48)) / 2});
  ASSERT_FALSE(tiny.is_ok());
  EXPECT_THAT(tiny.status().message(), HasSubstr("holds no batch: one row of 48 tokens"));
}

// With the CPU arena capped (a real limit: ONNX Runtime's arena refuses to grow past it), a
// batch of every document fails whole for lack of memory; the embedder splits it in half until
// the pieces fit and gives the vectors of one document at a time. A document that does not fit
// even alone is an error naming the model and its length.
TEST_F(OnnxTextEmbedderTest, OutOfMemoryBatchesAreSplitInHalf) {
  // Uncapped measurements first, on private sessions: the weights each session puts in the
  // arena, and what the whole batch needs on top of them.
  build_bert_model(dir_->file("long"), "--vocab " +
                                           std::to_string(vocabulary_from(*texts_).size() + 5) +
                                           " --max-positions 1024 --seed 12");
  write_file(dir_->file("long/tokenizer.json"), read_file(dir_->file("bert/tokenizer.json")));
  std::vector<float> alone;
  auto single = load("bert", {.batching = {.by_length = false, .max_batch_size = 1}});
  ASSERT_TRUE(single->embed(views(), alone).is_ok());
  const size_t n = texts_->size();
  const std::pair<size_t, size_t> whole_shape[] = {{n, 48}};
  auto whole = measure_text_model_memory(dir_->file("bert/model.onnx"), {}, "last_hidden_state",
                                         whole_shape);
  ASSERT_TRUE(whole.is_ok()) << whole.status().message();
  std::map<std::string, double> weights;
  for (const char* name : {"bert", "long"}) {
    auto session = OnnxSession::load_private(dir_->file(name) + "/model.onnx", {});
    ASSERT_TRUE(session.is_ok());
    weights[name] = double(session.value()->peak_memory().value());
  }
  const double activations = whole->front().bytes - weights["bert"];
  ASSERT_GT(activations, 0);
  // Room for both models' weights and half the whole batch's activations.
  const size_t limit = static_cast<size_t>(weights["bert"] + weights["long"] + activations / 2);
  OnnxTextEmbedderOptions capped{.batching = {.by_length = false, .max_batch_size = 64}};
  capped.session.memory_limit = limit;
  auto embedder = load("bert", capped);

  // The whole batch, run as one, fails for lack of memory.
  std::vector<std::vector<int64_t>> tokens(n);
  size_t columns = 0;
  for (size_t d = 0; d < n; ++d) {
    embedder->tokenize((*texts_)[d], tokens[d]);
    columns = std::max(columns, tokens[d].size());
  }
  std::vector<int64_t> ids(n * columns, 0), mask(n * columns, 0), types(n * columns, 0);
  for (size_t d = 0; d < n; ++d) {
    std::copy(tokens[d].begin(), tokens[d].end(), ids.begin() + d * columns);
    std::fill(mask.begin() + d * columns, mask.begin() + d * columns + tokens[d].size(), 1);
  }
  std::vector<OnnxIdMatrix> inputs = {{"input_ids", ids, int64_t(n), int64_t(columns)},
                                      {"attention_mask", mask, int64_t(n), int64_t(columns)},
                                      {"token_type_ids", types, int64_t(n), int64_t(columns)}};
  std::vector<OnnxFloatTensor> outputs;
  const std::string names[] = {"last_hidden_state"};
  Status failed = embedder->session().run(inputs, names, outputs);
  ASSERT_FALSE(failed.is_ok());
  EXPECT_TRUE(OnnxSession::is_out_of_memory(failed)) << failed.message();

  // Split, it goes through, with the vectors of one document at a time and of the same batch
  // run whole without a limit.
  std::vector<float> out, unsplit;
  Status status = embedder->embed(views(), out);
  ASSERT_TRUE(status.is_ok()) << status.message();
  ASSERT_TRUE(load("bert", {.batching = capped.batching})->embed(views(), unsplit).is_ok());
  ASSERT_EQ(out.size(), alone.size());
  ASSERT_EQ(unsplit.size(), alone.size());
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_NEAR(out[i], alone[i], 1e-5) << i;
    ASSERT_NEAR(out[i], unsplit[i], 1e-5) << i;
  }

  // One document of 1,024 tokens needs more attention memory alone than the whole batch.
  std::string text;
  while (text.size() < 20000) text += (*texts_)[text.size() % 6] + " ";
  OnnxTextEmbedderOptions long_options = capped;
  long_options.max_tokens = 1024;
  auto long_embedder = load("long", long_options);
  const std::string_view long_texts[] = {(*texts_)[0], text};
  status = long_embedder->embed(long_texts, out);
  ASSERT_FALSE(status.is_ok());
  EXPECT_THAT(status.message(), HasSubstr("long/model.onnx"));
  EXPECT_THAT(status.message(), HasSubstr("one document of 1024 tokens alone does not fit"));
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
