// decode_audio_file / decode_audio_bytes: every input format decodes to the samples sox and
// espeak-ng made; resampling by libswresample (while decoding, or of samples decoded before:
// resample_audio) agrees with sox's `rate`; mono is the channels'
// mean; each kind of bad file is refused with its own error kind.
#include "core/audio_decode.h"

#include <gtest/gtest.h>

#include <cmath>

#include "speech_audio.h"

namespace winnow::testing {
namespace {

constexpr const char* kSentence = "the quick brown fox jumps over the lazy dog";

AudioSamples decoded(const std::string& path, AudioRequest request = {}) {
  AudioDecode d = decode_audio_file(path, request);
  EXPECT_TRUE(d.audio) << path << ": " << d.message;
  return d.audio ? std::move(*d.audio) : AudioSamples{};
}

// sqrt(mean((a-b)^2)) / sqrt(mean(b^2)) over the frames both have.
double relative_rms_error(const std::vector<float>& a, const std::vector<float>& b) {
  double diff = 0, energy = 0;
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    diff += (a[i] - b[i]) * double(a[i] - b[i]);
    energy += double(b[i]) * b[i];
  }
  return std::sqrt(diff / energy);
}

TEST(AudioDecode, EveryFormatDecodesToTheSpeechsLength) {
  TempDir dir;
  const std::string wav = dir.file("s.wav");
  speak(wav, kSentence);
  const double seconds = soxi_seconds(wav);
  sox(wav, dir.file("s.flac"), "-r 44100 -c 2");
  sox(wav, dir.file("s.ogg"), "");
  for (const char* ext : {"mp3", "m4a", "opus"}) ffmpeg_convert(wav, dir.file(std::string("s.") + ext));
  for (const char* name : {"s.wav", "s.flac", "s.ogg", "s.mp3", "s.m4a", "s.opus"}) {
    SCOPED_TRACE(name);
    AudioSamples audio = decoded(dir.file(name));
    // mp3 and AAC add their encoders' delay and padding (a frame or two).
    EXPECT_NEAR(audio.duration_s(), seconds, 0.08);
  }
  AudioSamples flac = decoded(dir.file("s.flac"));
  EXPECT_EQ(flac.sample_rate, 44100);
  EXPECT_EQ(flac.channels, 2);
  EXPECT_EQ(flac.codec, "flac");
  AudioSamples raw = decoded(wav);
  EXPECT_EQ(raw.sample_rate, 22050);
  EXPECT_EQ(raw.codec, "pcm_s16le");
  // WAV is lossless: the samples are the 16-bit values sox reads, scaled.
  std::string dat;
  ASSERT_EQ(run_command("sox '" + wav + "' -t dat - | sed -n '3p'", &dat), 0);
  double t = 0, first = 0;
  ASSERT_EQ(std::sscanf(dat.c_str(), "%lf %lf", &t, &first), 2) << dat;
  EXPECT_NEAR(raw.samples[0], first, 1e-6);
}

TEST(AudioDecode, ResamplingAgreesWithSox) {
  TempDir dir;
  const std::string wav = dir.file("s.wav");
  speak(wav, kSentence);
  for (int rate : {16000, 8000, 48000}) {
    SCOPED_TRACE(rate);
    const std::string by_sox = dir.file(fmt::format("sox{}.wav", rate));
    sox(wav, by_sox, fmt::format("-e floating-point -b 32 -r {}", rate));
    AudioSamples ours = decoded(wav, {rate, true});
    AudioSamples theirs = decoded(by_sox);
    EXPECT_EQ(ours.sample_rate, rate);
    EXPECT_NEAR(double(ours.frames()), double(theirs.frames()), rate * 0.002);
    // Two good resamplers differ in their filters' transition bands only.
    EXPECT_LT(relative_rms_error(ours.samples, theirs.samples), 0.02);
    // Resampling samples already decoded (what the resample stage does) gives the same.
    AudioDecode again = resample_audio(decoded(wav), {rate, true});
    ASSERT_TRUE(again.audio) << again.message;
    EXPECT_EQ(again.audio->sample_rate, rate);
    EXPECT_NEAR(double(again.audio->frames()), double(ours.frames()), 2);
    EXPECT_LT(relative_rms_error(again.audio->samples, theirs.samples), 0.02);
    EXPECT_LT(relative_rms_error(again.audio->samples, ours.samples), 1e-3);
  }
}

TEST(AudioDecode, MonoIsTheMeanOfTheChannels) {
  TempDir dir;
  speak(dir.file("a.wav"), "one two three");
  sox(dir.file("a.wav"), dir.file("quiet.wav"), "", "vol 0.25");
  must_run(fmt::format("sox -M '{}' '{}' '{}'", dir.file("a.wav"), dir.file("quiet.wav"),
                       dir.file("stereo.wav")));
  AudioSamples stereo = decoded(dir.file("stereo.wav"));
  ASSERT_EQ(stereo.channels, 2);
  AudioSamples mono = decoded(dir.file("stereo.wav"), {0, true});
  ASSERT_EQ(mono.channels, 1);
  ASSERT_EQ(mono.frames(), stereo.frames());
  for (int64_t f = 0; f < mono.frames(); f += 97) {
    EXPECT_FLOAT_EQ(mono.samples[f], (stereo.samples[2 * f] + stereo.samples[2 * f + 1]) / 2);
  }
}

TEST(AudioDecode, BadFilesAreRefusedWithTheirKind) {
  TempDir dir;
  speak(dir.file("s.wav"), kSentence);
  sox(dir.file("s.wav"), dir.file("s.flac"), "");
  const std::string wav = read_file(dir.file("s.wav"));
  const std::string flac = read_file(dir.file("s.flac"));
  auto kind = [&](const std::string& name, const std::string& bytes) {
    write_file(dir.file(name), bytes);
    AudioDecode d = decode_audio_file(dir.file(name), {});
    EXPECT_FALSE(d.audio) << name;
    EXPECT_FALSE(d.message.empty());
    return std::string(input_error_name(d.error));
  };
  EXPECT_EQ(kind("cut.wav", wav.substr(0, wav.size() / 3)), "undecodable_audio");
  EXPECT_EQ(kind("cut.flac", flac.substr(0, flac.size() / 3)), "undecodable_audio");
  EXPECT_EQ(kind("text.wav", "no audio here, only words\n"), "unknown_media");
  must_run(fmt::format("sox -n -r 16000 -c 1 '{}' trim 0 0", dir.file("zero.wav")));
  EXPECT_EQ(input_error_name(decode_audio_file(dir.file("zero.wav"), {}).error), "empty_audio");
  AudioDecode missing = decode_audio_file(dir.file("missing.wav"), {});
  EXPECT_FALSE(missing.audio);
}

TEST(AudioDecode, BytesInMemoryDecodeAsTheFileDoes) {
  TempDir dir;
  speak(dir.file("s.wav"), "hello world");
  sox(dir.file("s.wav"), dir.file("s.flac"), "");
  AudioSamples from_file = decoded(dir.file("s.flac"));
  AudioDecode from_bytes = decode_audio_bytes(read_file(dir.file("s.flac")), {});
  ASSERT_TRUE(from_bytes.audio) << from_bytes.message;
  EXPECT_EQ(from_bytes.audio->samples, from_file.samples);
}

}  // namespace
}  // namespace winnow::testing
