// vad_segment with the stand-in VAD (tests/models/vad_test_models.h) on speech made by espeak-ng
// and laid out by sox at known times: two sentences, trimmed of espeak's own silence, between
// stretches of faint noise. Each item becomes one segment per sentence, whose span lies within
// a tolerance of where sox put it, at the item's own rate (16 kHz, 22.05 kHz resampled for the
// VAD, 48 kHz decimated), with its audio cut from the parent's and cached, FLAC as its payload,
// and its fields; noise alone is dropped as no_speech; audio that does not decode is an error
// record.
#include <gtest/gtest.h>

#include "../../models/vad_test_models.h"
#include "core/decoded_audio_cache.h"
#include "io/audio_item.h"
#include "speech_audio.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {
namespace {

struct Layout {
  std::vector<std::pair<double, double>> speech;  // where sox put each sentence, seconds
};

// Noise 1.0 s, sentence one, noise 1.5 s, sentence two, noise 0.8 s, at `rate`, into `path`.
Layout speech_between_noise(const TempDir& dir, const std::string& path, int rate) {
  Layout layout;
  double at = 1.0;
  std::string parts;
  const char* sentences[] = {"the quick brown fox jumps over the lazy dog",
                             "curation keeps the speech worth training on"};
  for (int k = 0; k < 2; ++k) {
    const std::string raw = dir.file(fmt::format("s{}.wav", k)),
                      trimmed = dir.file(fmt::format("t{}_{}.wav", k, rate));
    speak(raw, sentences[k]);
    sox(raw, trimmed, fmt::format("-r {}", rate),
        "silence 1 0.02 1% reverse silence 1 0.02 1% reverse");
    const double seconds = soxi_seconds(trimmed);
    layout.speech.emplace_back(at, at + seconds);
    at += seconds + 1.5;
  }
  const std::string quiet = dir.file(fmt::format("quiet{}.wav", rate));
  must_run(fmt::format("sox -n -r {} -c 1 -b 16 '{}' trim 0 1.0", rate, quiet));
  const std::string gap = dir.file(fmt::format("gap{}.wav", rate));
  must_run(fmt::format("sox -n -r {} -c 1 -b 16 '{}' trim 0 1.5", rate, gap));
  const std::string tail = dir.file(fmt::format("tail{}.wav", rate));
  must_run(fmt::format("sox -n -r {} -c 1 -b 16 '{}' trim 0 0.8", rate, tail));
  const std::string joined = dir.file(fmt::format("joined{}.wav", rate));
  must_run(fmt::format("sox '{}' '{}' '{}' '{}' '{}' '{}'", quiet,
                       dir.file(fmt::format("t0_{}.wav", rate)), gap,
                       dir.file(fmt::format("t1_{}.wav", rate)), tail, joined));
  const std::string noise = dir.file(fmt::format("noise{}.wav", rate));
  must_run(fmt::format("sox -n -r {} -c 1 -b 16 '{}' synth {} whitenoise vol 0.0005", rate, noise,
                       soxi_seconds(joined)));
  must_run(fmt::format("sox -m -v 1 '{}' -v 1 '{}' '{}'", joined, noise, path));
  return layout;
}

std::unique_ptr<DocBatch> batch_of(const std::vector<std::string>& paths) {
  auto batch = std::make_unique<DocBatch>();
  for (size_t i = 0; i < paths.size(); ++i) {
    AudioDecode d = decode_audio_file(paths[i], {});
    EXPECT_TRUE(d.audio) << d.message;
    add_audio_item(*batch, DocKey::make(0, i), fmt::format("item{}", i), paths[i], i + 1,
                   std::move(*d.audio));
  }
  return batch;
}

TEST(VadSegment, SegmentsLieWhereTheSpeechWas) {
  TempDir dir;
  build_vad_test_model(dir.file("vad.onnx"));
  std::vector<std::string> paths;
  std::vector<Layout> layouts;
  for (int rate : {16000, 22050, 48000}) {
    paths.push_back(dir.file(fmt::format("speech{}.wav", rate)));
    layouts.push_back(speech_between_noise(dir, paths.back(), rate));
  }
  paths.push_back(dir.file("noise_only.wav"));
  must_run(
      fmt::format("sox -n -r 16000 -c 1 -b 16 '{}' synth 2 whitenoise vol 0.0005", paths.back()));
  ReasonTable reasons;
  StageContext context(reasons, "vad", 0, 0);
  auto stage = build_stage(vad_segment_spec(),
                           {{"model", dir.file("vad.onnx")},
                            {"min_silence_duration_ms", 300.0},
                            {"speech_pad_ms", 30.0}},
                           context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = batch_of(paths);
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  // Rows: each speech item (replaced), its two segments; then the noise, dropped.
  ASSERT_EQ(batch->size(), 3u * 3 + 1);
  EXPECT_EQ(reason_of(*batch, reasons, 9), "vad/no_speech");
  const auto* start = batch->find_annotation("segment_start");
  const auto* end = batch->find_annotation("segment_end");
  ASSERT_TRUE(start && end);
  for (size_t item = 0; item < 3; ++item) {
    SCOPED_TRACE(paths[item]);
    const size_t parent = item * 3;
    EXPECT_EQ(reason_of(*batch, reasons, parent), "vad/split");
    for (size_t k = 0; k < 2; ++k) {
      const size_t row = parent + 1 + k;
      EXPECT_TRUE(batch->kept(row));
      EXPECT_EQ(batch->kind(row), ItemKind::kAudio);
      EXPECT_EQ(batch->id(row), fmt::format("item{}-{}", item, k));
      EXPECT_EQ(batch->find_annotation("parent_id")->string_at(row), fmt::format("item{}", item));
      EXPECT_EQ(batch->find_annotation("segment_index")->int_at(row), int64_t(k));
      const auto [begin_s, end_s] = layouts[item].speech[k];
      // Windows are 32 ms and the padding 30 ms; espeak's quiet onsets and sox's trimming
      // threshold differ from the stand-in's by a little more.
      EXPECT_NEAR(start->float_at(row), begin_s, 0.08);
      EXPECT_NEAR(end->float_at(row), end_s, 0.08);
      const AudioSamples* cached = batch->cache<DecodedAudioCache>().find(batch->key(row));
      ASSERT_NE(cached, nullptr);
      const double seconds = end->float_at(row) - start->float_at(row);
      EXPECT_NEAR(cached->duration_s(), seconds, 2.0 / cached->sample_rate);
      EXPECT_DOUBLE_EQ(batch->find_annotation("duration")->float_at(row), cached->duration_s());
      const Payload* payload = batch->payload(row);
      ASSERT_TRUE(payload && payload->in_memory());
      AudioDecode flac = decode_audio_bytes(payload->bytes(), {});
      ASSERT_TRUE(flac.audio) << flac.message;
      EXPECT_EQ(flac.audio->frames(), cached->frames());
      EXPECT_EQ(flac.audio->sample_rate, cached->sample_rate);
    }
  }
}

TEST(VadSegment, UndecodableAudioIsAnErrorRecordAndBadParametersAreRefused) {
  TempDir dir;
  build_vad_test_model(dir.file("vad.onnx"));
  ReasonTable reasons;
  StageContext skip(reasons, "vad", 0, 0);
  skip.set_skip_errors(true);
  auto stage = build_stage(vad_segment_spec(), {{"model", dir.file("vad.onnx")}}, skip);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = std::make_unique<DocBatch>();
  batch->add_item(DocKey::make(0, 0), ItemKind::kAudio, "bad.flac",
                  Payload::of_bytes("fLaC but nothing else", "audio/flac"), 1);
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  EXPECT_EQ(reason_of(*batch, reasons, 0), "vad/undecodable_audio");
  StageContext other(reasons, "vad2", 1, 0);
  EXPECT_FALSE(build_stage(vad_segment_spec(), {}, other).is_ok());
  EXPECT_FALSE(
      build_stage(vad_segment_spec(), {{"model", dir.file("vad.onnx")}, {"threshold", 1.5}}, other)
          .is_ok());
  EXPECT_FALSE(
      build_stage(vad_segment_spec(), {{"model", dir.file("missing.onnx")}}, other).is_ok());
}

}  // namespace
}  // namespace winnow::testing
