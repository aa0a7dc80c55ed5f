// encode_flac: decoded again (by FFmpeg and by sox, independently) the FLAC holds the samples
// given, to 16-bit precision, at their rate and channels; the same samples give the same bytes.
#include "media/audio_flac.h"

#include <gtest/gtest.h>

#include <cmath>

#include "speech_audio.h"

namespace winnow::testing {
namespace {

TEST(AudioFlac, RoundTripsToSixteenBitsAndIsDeterministic) {
  TempDir dir;
  AudioSamples audio;
  audio.sample_rate = 16000;
  audio.channels = 2;
  for (int i = 0; i < 16000 * 3 / 2; ++i) {
    audio.samples.push_back(0.5f * float(std::sin(i * 0.01)));
    audio.samples.push_back(0.25f * float(std::cos(i * 0.003)));
  }
  auto flac = encode_flac(audio);
  ASSERT_TRUE(flac.is_ok()) << flac.status().message();
  EXPECT_EQ(encode_flac(audio).value(), flac.value());
  write_file(dir.file("a.flac"), flac.value());
  AudioDecode back = decode_audio_bytes(flac.value(), {});
  ASSERT_TRUE(back.audio) << back.message;
  EXPECT_EQ(back.audio->sample_rate, 16000);
  EXPECT_EQ(back.audio->channels, 2);
  ASSERT_EQ(back.audio->samples.size(), audio.samples.size());
  for (size_t i = 0; i < audio.samples.size(); i += 7) {
    EXPECT_NEAR(back.audio->samples[i], audio.samples[i], 1.0 / 32768);
  }
  std::string info;
  ASSERT_EQ(run_command("soxi '" + dir.file("a.flac") + "'", &info), 0) << info;
  EXPECT_NE(info.find("24000 samples"), std::string::npos) << info;
  EXPECT_NE(info.find("Sample Rate    : 16000"), std::string::npos) << info;
}

}  // namespace
}  // namespace winnow::testing
