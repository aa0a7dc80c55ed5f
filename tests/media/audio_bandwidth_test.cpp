// audio_bandwidth_hz and mean_power_db against audio_bandwidth_reference.py (NeMo's bandwidth
// metric in numpy), and on noise band-limited by sox (a sinc low-pass with a 50 Hz transition
// band): low-passed at 4 kHz the bandwidth is near 4 kHz, at 2 kHz near 2 kHz. "Near": at or
// above the cutoff by less than a quarter, the window's leakage skirt (Blackman-Harris, some
// 45 dB under the band at a few hundred Hz past the edge) counting within NeMo's -50 dB.
#include "media/audio_bandwidth.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/audio_decode.h"
#include "media/audio_samples.h"
#include "speech_audio.h"

namespace winnow::testing {
namespace {

struct Reference {
  int64_t bandwidth = -1;
  std::vector<double> db;
};

Reference reference(const std::string& wav, const std::string& options = "") {
  std::string output;
  EXPECT_EQ(run_command("/usr/bin/python3 " + kSource + "/tests/media/audio_bandwidth_reference.py '" +
                            wav + "' " + options,
                        &output),
            0)
      << output;
  std::istringstream in(output);
  Reference r;
  in >> r.bandwidth;
  for (double v; in >> v;) r.db.push_back(v);
  return r;
}

AudioSamples decoded(const std::string& path) {
  AudioDecode d = decode_audio_file(path, {});
  EXPECT_TRUE(d.audio) << d.message;
  return d.audio ? std::move(*d.audio) : AudioSamples{};
}

void expect_like_reference(const std::string& wav, const BandwidthOptions& options,
                           const std::string& args = "") {
  SCOPED_TRACE(wav);
  Reference r = reference(wav, args);
  AudioSamples audio = decoded(wav);
  std::vector<float> mono = mono_samples(audio);
  std::vector<double> db = mean_power_db(mono, audio.sample_rate, options);
  ASSERT_EQ(db.size(), r.db.size());
  for (size_t k = 0; k < db.size(); ++k) EXPECT_NEAR(db[k], r.db[k], 1e-6) << "bin " << k;
  EXPECT_EQ(audio_bandwidth_hz(mono, audio.sample_rate, options), r.bandwidth);
}

TEST(AudioBandwidth, BandLimitedNoiseReachesItsCutoff) {
  TempDir dir;
  for (int cutoff : {4000, 2000}) {
    SCOPED_TRACE(cutoff);
    const std::string wav = dir.file(fmt::format("noise{}.wav", cutoff));
    must_run(fmt::format("sox -R -n -r 16000 -b 16 -c 1 '{}' synth 3 whitenoise vol 0.5 sinc -t 50 -{}",
                         wav, cutoff));
    AudioSamples audio = decoded(wav);
    const int64_t hz = audio_bandwidth_hz(mono_samples(audio), audio.sample_rate, {});
    EXPECT_GT(hz, cutoff - 100);
    EXPECT_LT(hz, cutoff * 5 / 4);
    expect_like_reference(wav, {});
  }
}

TEST(AudioBandwidth, SpeechAndStereoAndOtherSettingsMatchTheReference) {
  TempDir dir;
  speak(dir.file("s.wav"), "the quick brown fox jumps over the lazy dog");
  expect_like_reference(dir.file("s.wav"), {});
  must_run(fmt::format("sox -R -n -r 8000 -b 16 -c 1 '{}' synth 2 pinknoise vol 0.3",
                       dir.file("pink.wav")));
  must_run(fmt::format("sox -M '{}' '{}' '{}'", dir.file("s.wav"), dir.file("s.wav"),
                       dir.file("stereo.wav")));
  expect_like_reference(dir.file("stereo.wav"), {});
  BandwidthOptions other{1024, 0.02, 80, -30};
  expect_like_reference(dir.file("s.wav"), other, "1024 0.02 80 -30");
  expect_like_reference(dir.file("pink.wav"), {});
}

TEST(AudioBandwidth, SilenceHasNoBandAboveTheFloor) {
  std::vector<float> silence(16000, 0.0f);
  // Every bin sits at the floor, within the threshold of the peak: the top bin counts.
  EXPECT_EQ(audio_bandwidth_hz(silence, 16000, {}), 8000);
}

}  // namespace
}  // namespace winnow::testing
