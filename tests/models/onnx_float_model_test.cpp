#include "models/onnx_float_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "models/vision_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// With the CPU arena capped, a batch of every picture fails whole for lack of memory; the model
// splits it in half until the pieces fit and gives each picture's values as a batch of one does.
TEST(OnnxFloatModel, OutOfMemoryBatchesAreSplitInHalf) {
  TempDir dir;
  // 64 x 64 pictures in 4 x 4 patches of 64 channels: 64 KB of activations per picture.
  vision_script("encoder " + dir.path() + " --size 64 --patch 4 --width 64");
  const std::string path = dir.file("vision_model.onnx");
  const size_t n = 96, item = 3 * 64 * 64;
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  std::vector<float> pixels(n * item);
  for (float& v : pixels) v = normal(rng);

  OnnxFloatModelOptions options{.output = "image_embeds", .batch_size = 1};
  auto single = OnnxFloatModel::load(path, {3, 64, 64}, options);
  ASSERT_TRUE(single.is_ok()) << single.status().message();
  std::vector<float> alone;
  size_t columns = 0;
  ASSERT_TRUE(single.value()->run(pixels, n, alone, columns).is_ok());

  // Uncapped, on a private session: the weights in the arena and the whole batch's peak.
  auto probe = OnnxSession::load_private(path, {});
  ASSERT_TRUE(probe.is_ok());
  const double weights = double(probe.value()->peak_memory().value());
  OnnxFloatInput input{"pixel_values", pixels, {int64_t(n), 3, 64, 64}};
  std::vector<OnnxFloatTensor> outputs;
  const std::string names[] = {"image_embeds"};
  ASSERT_TRUE(
      probe.value()->run(std::span<const OnnxFloatInput>(&input, 1), names, outputs).is_ok());
  const double activations = double(probe.value()->peak_memory().value()) - weights;
  ASSERT_GT(activations, 0);

  options.batch_size = n;
  options.session.memory_limit = static_cast<size_t>(weights + activations / 2);
  auto capped = OnnxFloatModel::load(path, {3, 64, 64}, options);
  ASSERT_TRUE(capped.is_ok()) << capped.status().message();
  Status whole =
      capped.value()->session().run(std::span<const OnnxFloatInput>(&input, 1), names, outputs);
  ASSERT_FALSE(whole.is_ok());
  EXPECT_TRUE(OnnxSession::is_out_of_memory(whole)) << whole.message();

  std::vector<float> out;
  size_t split_columns = 0;
  Status status = capped.value()->run(pixels, n, out, split_columns);
  ASSERT_TRUE(status.is_ok()) << status.message();
  EXPECT_EQ(split_columns, columns);
  ASSERT_EQ(out.size(), alone.size());
  for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], alone[i], 1e-5) << i;
}

}  // namespace
}  // namespace winnow::testing
