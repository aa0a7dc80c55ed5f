// SileroVad on the stand-in model (vad_test_models.h): each audio's probabilities, run in one
// lockstep batch with audios of other lengths (rows leave the batch as their audio ends), are
// those the script computes the way Silero's OnnxWrapper feeds the model (context, state, the
// last window zero-padded), at 16 kHz and 8 kHz; a model without Silero's inputs is refused.
#include "models/silero_vad.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "vad_test_models.h"

namespace winnow::testing {
namespace {

// Bursts of loud noise between quiet stretches, `samples` long.
std::vector<float> bursts(std::mt19937& rng, size_t samples) {
  std::normal_distribution<float> noise(0, 1);
  std::vector<float> out(samples);
  for (size_t i = 0; i < samples; ++i) {
    const bool loud = (i / 3000) % 2 == 1;
    out[i] = noise(rng) * (loud ? 0.1f : 0.0005f);
  }
  return out;
}

TEST(SileroVad, ProbabilitiesAreTheWrappersInALockstepBatch) {
  TempDir dir;
  build_vad_test_model(dir.file("vad.onnx"));
  auto vad = SileroVad::load(dir.file("vad.onnx"), {});
  ASSERT_TRUE(vad.is_ok()) << vad.status().message();
  std::mt19937 rng(7);
  for (int rate : {16000, 8000}) {
    SCOPED_TRACE(rate);
    std::vector<std::vector<float>> audios;
    for (size_t length : {20000u, 512u, 7001u, 0u, 20000u, 1u})
      audios.push_back(bursts(rng, length));
    std::vector<std::span<const float>> spans(audios.begin(), audios.end());
    std::vector<std::vector<float>> probs;
    ASSERT_TRUE((*vad)->probabilities(spans, rate, probs).is_ok());
    ASSERT_EQ(probs.size(), audios.size());
    for (size_t a = 0; a < audios.size(); ++a) {
      const std::string raw = dir.file("a.raw");
      write_file(raw, std::string_view(reinterpret_cast<const char*>(audios[a].data()),
                                       audios[a].size() * sizeof(float)));
      std::vector<double> expected = vad_reference_probabilities(raw, rate);
      ASSERT_EQ(probs[a].size(), expected.size()) << "audio " << a;
      size_t speech = 0;
      for (size_t w = 0; w < expected.size(); ++w) {
        EXPECT_NEAR(probs[a][w], expected[w], 1e-4) << "audio " << a << " window " << w;
        speech += expected[w] > 0.5;
      }
      if (audios[a].size() >= 20000) {
        EXPECT_GT(speech, 0u);  // the bursts count as speech
      }
    }
  }
}

TEST(SileroVad, RefusesAModelWithoutSilerosInputs) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run_command("/usr/bin/python3 " + kSource + "/tests/models/transnet_test_model.py " +
                            dir.file("other.onnx") + " 2>&1",
                        &out),
            0)
      << out;
  auto vad = SileroVad::load(dir.file("other.onnx"), {});
  ASSERT_FALSE(vad.is_ok());
  EXPECT_NE(vad.status().message().find("Silero VAD's three inputs"), std::string::npos)
      << vad.status().message();
}

}  // namespace
}  // namespace winnow::testing
