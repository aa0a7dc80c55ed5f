// read_nemo_asr_config on NeMo's key spellings (window in seconds or samples, features or
// nfilt, decoder.vocabulary or labels, n_fft from the window as NeMo picks it) and what it refuses.
#include "stages/audio/nemo_asr_config.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace winnow::testing {
namespace {

TEST(NemoAsrConfig, ReadsNemosSpellings) {
  TempDir dir;
  write_file(dir.file("a.yaml"),
             "preprocessor:\n  sample_rate: 8000\n  n_window_size: 200\n  n_window_stride: 80\n"
             "  nfilt: 40\n  normalize: NA\n  window: hamming\nlabels: [' ', 'a', \"'\"]\n");
  auto a = read_nemo_asr_config(dir.file("a.yaml"));
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(a->mel.sample_rate, 8000);
  EXPECT_EQ(a->mel.win_length, 200);
  EXPECT_EQ(a->mel.hop_length, 80);
  EXPECT_EQ(a->mel.n_fft, 256);  // the next power of two, as NeMo picks it
  EXPECT_EQ(a->mel.n_mels, 40);
  EXPECT_FALSE(a->mel.per_feature);
  EXPECT_EQ(a->vocabulary, (std::vector<std::string>{" ", "a", "'"}));
  write_file(dir.file("b.yaml"),
             "preprocessor:\n  window_size: 0.025\n  window_stride: 0.01\n  features: 80\n"
             "encoder:\n  subsampling_factor: 8\ndecoder:\n  vocabulary: [x]\n");
  auto b = read_nemo_asr_config(dir.file("b.yaml"));
  ASSERT_TRUE(b.is_ok()) << b.status().message();
  EXPECT_EQ(b->mel.win_length, 400);
  EXPECT_EQ(b->mel.hop_length, 160);
  EXPECT_EQ(b->mel.n_fft, 512);
  EXPECT_TRUE(b->mel.per_feature);
  EXPECT_EQ(b->subsampling, 8);
  EXPECT_EQ(a->subsampling, 0);
  write_file(dir.file("c.yaml"), "preprocessor:\n  normalize: all_features\nlabels: [a]\n");
  EXPECT_FALSE(read_nemo_asr_config(dir.file("c.yaml")).is_ok());
  write_file(dir.file("d.yaml"), "preprocessor:\n  features: 64\n");
  EXPECT_FALSE(read_nemo_asr_config(dir.file("d.yaml")).is_ok());  // no vocabulary
}

}  // namespace
}  // namespace winnow::testing
