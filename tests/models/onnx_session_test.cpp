#include "models/onnx_session.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "models/onnx_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class OnnxSessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    build_bert_model(dir_->file("bert"), "--head pooler --seed 3");
    build_bert_model(dir_->file("bert32"), "--int32 --no-token-types --seed 4");
  }
  static void TearDownTestSuite() { delete dir_; }
  static TempDir* dir_;
};
TempDir* OnnxSessionTest::dir_ = nullptr;

// Documents of random ids (the model's vocabulary is 64) of lengths 1 to 40.
std::vector<std::vector<int64_t>> random_documents(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<int64_t>> docs(count);
  for (auto& d : docs) {
    d.resize(1 + rng() % 40);
    for (auto& id : d) id = rng() % 64;
  }
  return docs;
}

// Runs `docs` as one padded batch; returns per document its mean over real tokens, its first
// token's state and (when asked) the model's sentence_embedding.
struct Pooled {
  std::vector<float> mean, cls, pooler;
};
std::vector<Pooled> run_padded(const OnnxSession& session,
                               const std::vector<std::vector<int64_t>>& docs, bool token_types,
                               bool pooler) {
  size_t rows = docs.size(), columns = 0;
  for (const auto& d : docs) columns = std::max(columns, d.size());
  std::vector<int64_t> ids(rows * columns, 0), mask(rows * columns, 0), types(rows * columns, 0);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < docs[r].size(); ++c) {
      ids[r * columns + c] = docs[r][c];
      mask[r * columns + c] = 1;
    }
  }
  std::vector<OnnxIdMatrix> inputs = {{"input_ids", ids, int64_t(rows), int64_t(columns)},
                                      {"attention_mask", mask, int64_t(rows), int64_t(columns)}};
  if (token_types) inputs.push_back({"token_type_ids", types, int64_t(rows), int64_t(columns)});
  std::vector<std::string> names = {"last_hidden_state"};
  if (pooler) names.push_back("sentence_embedding");
  std::vector<OnnxFloatTensor> outputs;
  Status status = session.run(inputs, names, outputs);
  EXPECT_TRUE(status.is_ok()) << status.message();
  std::vector<Pooled> pooled(rows);
  if (!status.is_ok()) return pooled;
  const OnnxFloatTensor& hidden = outputs[0];
  EXPECT_EQ(hidden.shape, (std::vector<int64_t>{int64_t(rows), int64_t(columns), 16}));
  for (size_t r = 0; r < rows; ++r) {
    pooled[r].mean.assign(16, 0.0f);
    for (size_t c = 0; c < docs[r].size(); ++c) {
      for (int h = 0; h < 16; ++h) {
        pooled[r].mean[h] += hidden.values[(r * columns + c) * 16 + h] / docs[r].size();
      }
    }
    pooled[r].cls.assign(hidden.values.begin() + r * columns * 16,
                         hidden.values.begin() + r * columns * 16 + 16);
    if (pooler) {
      pooled[r].pooler.assign(outputs[1].values.begin() + r * 16,
                              outputs[1].values.begin() + r * 16 + 16);
    }
  }
  return pooled;
}

void expect_near(const std::vector<float>& actual, const std::vector<double>& expected,
                 const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4) << what << " [" << i << "]";
  }
}

TEST_F(OnnxSessionTest, DeclaresItsInputsAndOutputs) {
  auto session = OnnxSession::load(dir_->file("bert/model.onnx"), {});
  ASSERT_TRUE(session.is_ok()) << session.status().message();
  const OnnxSession& s = *session.value();
  EXPECT_EQ(s.provider(), "CPU");
  ASSERT_EQ(s.inputs().size(), 3u);
  EXPECT_EQ(s.inputs()[0].name, "input_ids");
  EXPECT_EQ(s.inputs()[0].element_type, "int64");
  EXPECT_EQ(s.inputs()[0].shape, (std::vector<int64_t>{-1, -1}));
  ASSERT_NE(s.find_input("token_type_ids"), nullptr);
  ASSERT_NE(s.find_output("last_hidden_state"), nullptr);
  EXPECT_EQ(s.find_output("last_hidden_state")->shape, (std::vector<int64_t>{-1, -1, 16}));
  EXPECT_EQ(s.find_output("sentence_embedding")->shape, (std::vector<int64_t>{-1, 16}));
  EXPECT_EQ(s.find_output("logits"), nullptr);
  EXPECT_EQ(OnnxSession::runtime_version().substr(0, 2), "1.");
}

TEST_F(OnnxSessionTest, OneSessionPerModelAndSettings) {
  auto a = OnnxSession::load(dir_->file("bert/model.onnx"), {});
  auto b = OnnxSession::load(dir_->file("bert/../bert/model.onnx"), {});
  auto c = OnnxSession::load(dir_->file("bert/model.onnx"), {.intra_op_threads = 2});
  ASSERT_TRUE(a.is_ok() && b.is_ok() && c.is_ok());
  EXPECT_EQ(a.value().get(), b.value().get());
  EXPECT_NE(a.value().get(), c.value().get());
}

// Padded batches give each document what numpy computes for it alone, to 1e-4.
TEST_F(OnnxSessionTest, OutputsMatchTheNumpyReference) {
  auto docs = random_documents(12, 5);
  ReferenceOutputs expected = reference_outputs(dir_->file("bert"), docs);
  for (int threads : {1, 2}) {
    auto session = OnnxSession::load(dir_->file("bert/model.onnx"), {.intra_op_threads = threads});
    ASSERT_TRUE(session.is_ok()) << session.status().message();
    std::vector<Pooled> pooled = run_padded(*session.value(), docs, true, true);
    for (size_t d = 0; d < docs.size(); ++d) {
      SCOPED_TRACE(d);
      expect_near(pooled[d].mean, expected[d]["mean"], "mean");
      expect_near(pooled[d].cls, expected[d]["cls"], "cls");
      expect_near(pooled[d].pooler, expected[d]["pooler"], "pooler");
    }
  }
}

// Int32 inputs (some exports use them) are converted; models without token types work.
TEST_F(OnnxSessionTest, Int32InputsWithoutTokenTypes) {
  auto docs = random_documents(5, 6);
  ReferenceOutputs expected = reference_outputs(dir_->file("bert32"), docs);
  auto session = OnnxSession::load(dir_->file("bert32/model.onnx"), {});
  ASSERT_TRUE(session.is_ok()) << session.status().message();
  EXPECT_EQ(session.value()->inputs()[0].element_type, "int32");
  std::vector<Pooled> pooled = run_padded(*session.value(), docs, false, false);
  for (size_t d = 0; d < docs.size(); ++d) expect_near(pooled[d].mean, expected[d]["mean"], "mean");
}

// Workers share one session: concurrent runs give what one run alone gives, bit for bit.
TEST_F(OnnxSessionTest, ConcurrentRunsAreDeterministic) {
  auto session = OnnxSession::load(dir_->file("bert/model.onnx"), {});
  ASSERT_TRUE(session.is_ok());
  auto docs = random_documents(8, 7);
  std::vector<Pooled> alone = run_padded(*session.value(), docs, true, true);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 5; ++repeat) {
        std::vector<Pooled> again = run_padded(*session.value(), docs, true, true);
        for (size_t d = 0; d < docs.size(); ++d) {
          mismatches[t] += again[d].mean != alone[d].mean || again[d].pooler != alone[d].pooler;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST_F(OnnxSessionTest, BadModelsAreClearErrors) {
  auto missing = OnnxSession::load(dir_->file("nowhere/model.onnx"), {});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr(dir_->file("nowhere/model.onnx")));
  EXPECT_THAT(missing.status().message(), HasSubstr("does not exist"));

  write_file(dir_->file("garbage.onnx"), "this is not a protobuf \x01\x02\x03");
  auto garbage = OnnxSession::load(dir_->file("garbage.onnx"), {});
  ASSERT_FALSE(garbage.is_ok());
  EXPECT_THAT(garbage.status().message(), HasSubstr(dir_->file("garbage.onnx")));
  EXPECT_THAT(garbage.status().message(), HasSubstr("cannot load"));

  // A real model cut short.
  std::string bytes = read_file(dir_->file("bert/model.onnx"));
  write_file(dir_->file("cut.onnx"), bytes.substr(0, bytes.size() / 2));
  auto cut = OnnxSession::load(dir_->file("cut.onnx"), {});
  ASSERT_FALSE(cut.is_ok());
  EXPECT_THAT(cut.status().message(), HasSubstr("cannot load"));

  if (!OnnxSession::has_cuda()) {
    auto gpu = OnnxSession::load(dir_->file("bert/model.onnx"), {.gpu = true});
    ASSERT_FALSE(gpu.is_ok());
    EXPECT_THAT(gpu.status().message(), HasSubstr("no CUDA execution provider"));
  }
}

TEST_F(OnnxSessionTest, RunErrorsNameTheProblem) {
  auto session = OnnxSession::load(dir_->file("bert/model.onnx"), {});
  ASSERT_TRUE(session.is_ok());
  std::vector<int64_t> ids = {1, 2};
  std::vector<OnnxIdMatrix> inputs = {{"input_idz", ids, 1, 2}};
  std::vector<std::string> names = {"last_hidden_state"};
  std::vector<OnnxFloatTensor> outputs;
  Status status = session.value()->run(inputs, names, outputs);
  ASSERT_FALSE(status.is_ok());
  EXPECT_THAT(status.message(), HasSubstr("no input 'input_idz'"));
}

}  // namespace
}  // namespace winnow::testing
