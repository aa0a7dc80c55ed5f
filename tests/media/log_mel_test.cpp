// LogMel against log_mel_reference.py (NeMo's FilterbankFeatures at inference in numpy:
// np.fft.rfft, librosa's mel formulas) on espeak-ng speech and on noise, with NeMo's default
// settings (20 ms Hann window, 10 ms hop, n_fft 512, 64 bands, per-feature normalisation) and
// others (80 bands, a Hamming window, 8 kHz, no normalisation).
#include "media/log_mel.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/audio_decode.h"
#include "media/audio_samples.h"
#include "speech_audio.h"

namespace winnow::testing {
namespace {

std::vector<std::vector<double>> reference(const TempDir& dir, std::span<const float> mono,
                                           const MelOptions& o) {
  const std::string raw = dir.file("x.raw");
  write_file(raw, std::string_view(reinterpret_cast<const char*>(mono.data()), mono.size_bytes()));
  std::string out;
  EXPECT_EQ(
      run_command(fmt::format("/usr/bin/python3 {}/tests/media/log_mel_reference.py {} {} {} "
                              "{} {} {} {} {}",
                              kSource, raw, o.sample_rate, o.win_length, o.hop_length, o.n_fft,
                              o.n_mels, o.window, o.per_feature ? "per_feature" : "none"),
                  &out),
      0)
      << out;
  std::vector<std::vector<double>> rows;
  for (const std::string& line : split_lines(out)) {
    std::istringstream in(line);
    rows.emplace_back();
    for (double v; in >> v;) rows.back().push_back(v);
  }
  return rows;
}

void expect_like_reference(const TempDir& dir, std::span<const float> mono, const MelOptions& o,
                           double tolerance) {
  MelFeatures f = LogMel(o).compute(mono);
  auto expected = reference(dir, mono, o);
  ASSERT_EQ(int(expected.size()), f.n_mels);
  ASSERT_EQ(int64_t(expected[0].size()), f.frames);
  double worst = 0;
  for (int m = 0; m < f.n_mels; ++m) {
    for (int64_t t = 0; t < f.frames; ++t) {
      worst = std::max(worst, std::abs(f.values[m * f.frames + t] - expected[m][t]));
    }
  }
  EXPECT_LT(worst, tolerance);
}

TEST(LogMel, SpeechLikeNumpy) {
  TempDir dir;
  speak(dir.file("s.wav"), "log mel features for speech recognition");
  sox(dir.file("s.wav"), dir.file("s16.wav"), "-r 16000");
  AudioDecode d = decode_audio_file(dir.file("s16.wav"), {});
  ASSERT_TRUE(d.audio) << d.message;
  std::vector<float> mono = mono_samples(*d.audio);
  MelOptions o;  // NeMo's defaults
  expect_like_reference(dir, mono, o, 1e-5);
  o.n_mels = 80;
  o.window = "hamming";
  o.win_length = 400;
  expect_like_reference(dir, mono, o, 1e-5);
  o.per_feature = false;  // raw log energies
  expect_like_reference(dir, mono, o, 1e-5);
}

TEST(LogMel, NoiseAtEightKilohertzAndShortAudio) {
  TempDir dir;
  std::mt19937 rng(5);
  std::normal_distribution<float> noise(0, 0.1f);
  std::vector<float> mono(12345);
  for (float& v : mono) v = noise(rng);
  MelOptions o;
  o.sample_rate = 8000;
  o.win_length = 160;
  o.hop_length = 80;
  o.n_fft = 256;
  o.n_mels = 40;
  expect_like_reference(dir, mono, o, 1e-5);
  EXPECT_EQ(LogMel(o).compute(std::span<const float>(mono).first(79)).frames, 0);
  EXPECT_EQ(LogMel(o).compute(std::span<const float>(mono).first(160)).frames, 2);
}

}  // namespace
}  // namespace winnow::testing
