#include "models/memory_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <sstream>

#include "models/onnx_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

std::vector<MemorySample> exact_samples(double a, double b, double c) {
  std::vector<MemorySample> samples;
  for (auto [rows, columns] : memory_probe_shapes(128)) {
    const double tokens = double(rows) * double(columns);
    samples.push_back({rows, columns, a + b * tokens + c * tokens * double(columns)});
  }
  return samples;
}

// Coefficients of a MiniLM-sized model's size: 90 MB of weights, kilobytes per token, bytes per
// token pair; recovered to rounding.
TEST(MemoryModel, FitRecoversExactCoefficients) {
  auto fit = fit_memory_model(exact_samples(9.0e7, 14250.5, 97.25));
  ASSERT_TRUE(fit.is_ok()) << fit.status().message();
  EXPECT_NEAR(fit->a, 9.0e7, 9.0e7 * 1e-9);
  EXPECT_NEAR(fit->b, 14250.5, 14250.5 * 1e-9);
  EXPECT_NEAR(fit->c, 97.25, 97.25 * 1e-9);
  EXPECT_NEAR(fit->predict(32, 512), 9.0e7 + 14250.5 * 32 * 512 + 97.25 * 32 * 512 * 512, 1.0);
}

// The weights are a constant under every run: a gigabyte more of them moves `a` alone.
TEST(MemoryModel, FitIsRobustToAConstant) {
  auto small = fit_memory_model(exact_samples(1000, 300, 2));
  auto large = fit_memory_model(exact_samples(1000 + 4.0e9, 300, 2));
  ASSERT_TRUE(small.is_ok() && large.is_ok());
  EXPECT_NEAR(large->a - small->a, 4.0e9, 1e-3);
  EXPECT_NEAR(large->b, 300, 300 * 1e-9);
  EXPECT_NEAR(large->c, 2, 2 * 1e-9);
}

// On noisy measurements the fit is the least-squares one: numpy's lstsq on the same numbers.
TEST(MemoryModel, NoisyFitIsNumpysLeastSquares) {
  std::mt19937 rng(7);
  std::vector<MemorySample> samples;
  for (size_t rows : {1, 2, 3, 5, 8}) {
    for (size_t columns : {16, 40, 96, 128}) {
      const double tokens = double(rows * columns);
      const double noise = double(rng() % 200001) - 100000.0;
      samples.push_back({rows, columns, 5.0e7 + 9000 * tokens + 40 * tokens * columns + noise});
    }
  }
  auto fit = fit_memory_model(samples);
  ASSERT_TRUE(fit.is_ok()) << fit.status().message();
  std::ostringstream script;
  script.precision(17);
  script << "import numpy as np\nd = np.array([";
  for (const auto& s : samples)
    script << "[" << s.rows << "," << s.columns << "," << s.bytes << "],";
  script << "], dtype=np.float64)\n"
            "t = d[:, 0] * d[:, 1]\n"
            "x = np.stack([np.ones(len(d)), t, t * d[:, 1]], axis=1)\n"
            "print(' '.join(repr(float(v)) for v in np.linalg.lstsq(x, d[:, 2], rcond=None)[0]))\n";
  TempDir dir;
  write_file(dir.file("fit.py"), script.str());
  std::string out;
  ASSERT_EQ(run_command("/usr/bin/python3 " + dir.file("fit.py"), &out), 0) << out;
  std::istringstream in(out);
  double a = 0, b = 0, c = 0;
  in >> a >> b >> c;
  EXPECT_NEAR(fit->a, a, std::abs(a) * 1e-8);
  EXPECT_NEAR(fit->b, b, std::abs(b) * 1e-8);
  EXPECT_NEAR(fit->c, c, std::abs(c) * 1e-8);
}

TEST(MemoryModel, ShapesThatCannotSeparateTheTermsAreErrors) {
  // One length: rows·columns² is a multiple of rows·columns.
  std::vector<MemorySample> one_length = {{1, 64, 10}, {2, 64, 20}, {4, 64, 40}};
  auto fit = fit_memory_model(one_length);
  ASSERT_FALSE(fit.is_ok());
  EXPECT_THAT(fit.status().message(), HasSubstr("do not tell the three terms apart"));
  std::vector<MemorySample> two = {{1, 64, 10}, {2, 32, 20}};
  EXPECT_THAT(fit_memory_model(two).status().message(), HasSubstr("at least 3"));
}

// rows(s) = floor((budget − a) / (b·s + c·s²)), worked by hand.
TEST(MemoryModel, MaxRowsFromTheBudget) {
  MemoryModel model{.a = 100, .b = 2, .c = 1};
  EXPECT_EQ(model.max_rows(10, 1000), 7u);  // 900 / 120 = 7.5
  EXPECT_EQ(model.max_rows(10, 940), 7u);   // 840 / 120 = 7 exactly
  EXPECT_EQ(model.max_rows(10, 939), 6u);
  EXPECT_EQ(model.max_rows(30, 1000), 0u);  // 900 / 960: not one row
  EXPECT_EQ(model.max_rows(10, 50), 0u);    // the weights alone are over
  EXPECT_EQ((MemoryModel{.a = 100}).max_rows(10, 1000), std::numeric_limits<size_t>::max());
}

// Each shape of the chain has at least the rows and columns of the one before, so the
// allocator's high-water mark after each run is that run's own peak.
TEST(MemoryModel, ProbeShapesGrowAlongTheChain) {
  for (size_t longest : {4, 48, 128, 512, 8192}) {
    auto shapes = memory_probe_shapes(longest);
    ASSERT_GE(shapes.size(), 3u);
    EXPECT_EQ(shapes.back().second, std::min<size_t>(longest, 512));
    for (size_t i = 1; i < shapes.size(); ++i) {
      EXPECT_GE(shapes[i].first, shapes[i - 1].first);
      EXPECT_GE(shapes[i].second, shapes[i - 1].second);
      EXPECT_GT(shapes[i].first * shapes[i].second, shapes[i - 1].first * shapes[i - 1].second);
    }
  }
}

// On a real model (a small BERT, seeded weights): peaks grow along the chain and the fit
// predicts held-out shapes, measured each on a fresh session, with more rows than it was fitted
// on (16 and 8 against 4). Within 15%: ORT's arena hands out a whole free chunk when what would
// be left of it is small, so the peaks it reports move in steps (these three came out 1-3% off
// when measured; shapes that land on a step, such as 16 x 384 here, can be 40% off, which is
// what the split on out-of-memory is for).
TEST(MemoryModel, FitsAndPredictsARealModel) {
  TempDir dir;
  build_bert_model(dir.file("bert"), "--hidden 64 --heads 4 --layers 2 --max-positions 512");
  const std::string path = dir.file("bert/model.onnx");
  auto samples = measure_text_model_memory(path, {}, "last_hidden_state", memory_probe_shapes(512));
  ASSERT_TRUE(samples.is_ok()) << samples.status().message();
  for (size_t i = 1; i < samples->size(); ++i) {
    EXPECT_GT((*samples)[i].bytes, (*samples)[i - 1].bytes) << i;
  }
  auto fit = fit_memory_model(samples.value());
  ASSERT_TRUE(fit.is_ok()) << fit.status().message();
  EXPECT_GT(fit->c, 0);  // the attention scores
  for (auto [rows, columns] :
       std::vector<std::pair<size_t, size_t>>{{16, 256}, {8, 512}, {16, 512}}) {
    const std::pair<size_t, size_t> shape[] = {{rows, columns}};
    auto held_out = measure_text_model_memory(path, {}, "last_hidden_state", shape);
    ASSERT_TRUE(held_out.is_ok());
    const double measured = held_out->front().bytes;
    EXPECT_NEAR(fit->predict(rows, columns), measured, measured * 0.15) << rows << " x " << columns;
  }
  // Fitted once per model and device: the second call returns the first fit.
  auto first = text_model_memory(path, {}, "last_hidden_state", 512);
  auto second = text_model_memory(path, {}, "last_hidden_state", 512);
  ASSERT_TRUE(first.is_ok() && second.is_ok());
  EXPECT_EQ(first->b, second->b);
  EXPECT_EQ(first->c, second->c);
}

}  // namespace
}  // namespace winnow::testing
