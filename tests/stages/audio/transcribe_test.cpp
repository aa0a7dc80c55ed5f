// transcribe with a stand-in CTC model built at test time (tests/models/ctc_test_model.py: a
// frame's token is its loudest normalised mel band, every other frame) on espeak-ng speech of
// several lengths and rates: each transcript is the one ctc_test_model.py decodes from numpy's
// log-mel features of the same samples (tests/media/log_mel_reference.py), whether the items
// run one per batch or together (padding, the subsampled lengths); audio that does not decode
// is an error record; a config winnow cannot follow is refused.
#include <gtest/gtest.h>

#include <sstream>

#include "io/audio_item.h"
#include "media/audio_samples.h"
#include "speech_audio.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"

namespace winnow::testing {
namespace {

const std::string kScript = kSource + "/tests/models/ctc_test_model.py";

// The transcript the script decodes from `audio` as the stage hands it to the model (mono,
// 16 kHz), and how far the decision was from a tie.
std::pair<std::string, double> expected_transcript(const TempDir& dir, const AudioSamples& audio) {
  std::vector<float> mono = mono_samples(audio);
  if (audio.sample_rate != 16000) {
    AudioDecode r = resample_audio({mono, audio.sample_rate, 1, "", ""}, {16000, true});
    EXPECT_TRUE(r.audio) << r.message;
    mono = r.audio->samples;
  }
  write_file(dir.file("x.raw"), std::string_view(reinterpret_cast<const char*>(mono.data()),
                                                 mono.size() * sizeof(float)));
  std::string out;
  EXPECT_EQ(run_command(fmt::format("/usr/bin/python3 {} decode {} {}", kScript,
                                    dir.file("ctc.yaml"), dir.file("x.raw")),
                        &out),
            0)
      << out;
  std::vector<std::string> lines = split_lines(out);
  EXPECT_EQ(lines.size(), 2u) << out;
  return {lines.at(0), std::stod(lines.at(1))};
}

TEST(Transcribe, GreedyTranscriptsMatchThePythonDecodeWhateverTheBatching) {
  TempDir dir;
  must_run(fmt::format("/usr/bin/python3 {} build {} {}", kScript, dir.file("ctc.onnx"),
                       dir.file("ctc.yaml")));
  const std::vector<std::pair<std::string, std::string>> speech = {
      {"the quick brown fox jumps over the lazy dog", "-r 16000"},
      {"hello", "-r 16000"},
      {"speech curation at scale needs fast transcripts of every file", "-r 22050 -c 2"},
      {"one two three", "-r 16000"}};
  std::vector<std::string> paths;
  for (size_t i = 0; i < speech.size(); ++i) {
    speak(dir.file(fmt::format("raw{}.wav", i)), speech[i].first);
    paths.push_back(dir.file(fmt::format("s{}.wav", i)));
    sox(dir.file(fmt::format("raw{}.wav", i)), paths.back(), speech[i].second);
  }
  auto make_batch = [&] {
    auto batch = std::make_unique<DocBatch>();
    for (size_t i = 0; i < paths.size(); ++i) {
      AudioDecode d = decode_audio_file(paths[i], {});
      EXPECT_TRUE(d.audio) << d.message;
      add_audio_item(*batch, DocKey::make(0, i), paths[i], paths[i], i + 1, std::move(*d.audio));
    }
    return batch;
  };
  std::vector<std::string> expected;
  {
    auto batch = make_batch();
    for (size_t i = 0; i < paths.size(); ++i) {
      std::string why;
      auto [text, gap] = expected_transcript(dir, *audio_samples(*batch, i, &why));
      // winnow's features are numpy's within 1e-6 (float rounding; log_mel_test holds them to
      // 1e-5): a best band ahead by more than twice that is the best band on both sides.
      ASSERT_GT(gap, 2e-5) << "a near tie would make float rounding decide: pick other speech";
      EXPECT_FALSE(text.empty());
      expected.push_back(text);
    }
  }
  ReasonTable reasons;
  for (int64_t per_batch : {1, 8}) {
    SCOPED_TRACE(per_batch);
    StageContext context(reasons, "asr", 0, 0);
    auto stage = build_stage(transcribe_spec(),
                             {{"model", dir.file("ctc.onnx")},
                              {"config", dir.file("ctc.yaml")},
                              {"max_batch_size", per_batch}},
                             context);
    ASSERT_TRUE(stage.is_ok()) << stage.status().message();
    auto batch = make_batch();
    ASSERT_TRUE((*stage)->process(*batch).is_ok());
    const AnnotationColumn* text = batch->find_annotation("pred_text");
    ASSERT_NE(text, nullptr);
    for (size_t i = 0; i < paths.size(); ++i) {
      EXPECT_TRUE(batch->kept(i));
      EXPECT_EQ(text->string_at(i), expected[i]) << paths[i];
    }
  }
}

TEST(Transcribe, UndecodableAudioAndConfigsItCannotFollow) {
  TempDir dir;
  must_run(fmt::format("/usr/bin/python3 {} build {} {}", kScript, dir.file("ctc.onnx"),
                       dir.file("ctc.yaml")));
  ReasonTable reasons;
  StageContext skip(reasons, "asr", 0, 0);
  skip.set_skip_errors(true);
  auto stage = build_stage(
      transcribe_spec(), {{"model", dir.file("ctc.onnx")}, {"config", dir.file("ctc.yaml")}}, skip);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  auto batch = std::make_unique<DocBatch>();
  batch->add_item(DocKey::make(0, 0), ItemKind::kAudio, "bad.flac",
                  Payload::of_bytes("fLaC but nothing else", "audio/flac"), 1);
  ASSERT_TRUE((*stage)->process(*batch).is_ok());
  EXPECT_EQ(reason_of(*batch, reasons, 0), "asr/undecodable_audio");
  std::string config = read_file(dir.file("ctc.yaml"));
  config.replace(config.find("frame_splicing: 1"), 17, "frame_splicing: 3");
  write_file(dir.file("spliced.yaml"), config);
  StageContext other(reasons, "asr2", 1, 0);
  auto refused =
      build_stage(transcribe_spec(),
                  {{"model", dir.file("ctc.onnx")}, {"config", dir.file("spliced.yaml")}}, other);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.status().message().find("frame_splicing"), std::string::npos);
}

}  // namespace
}  // namespace winnow::testing
