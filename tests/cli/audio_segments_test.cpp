// vad_segment and transcribe through the real binary, with the stand-in models built at test
// time (tests/models/vad_test_model.py, ctc_test_model.py), on a NeMo manifest of espeak-ng
// speech: two files of two sentences with a pause between, and one of silence. Every segment
// comes out as a manifest line with its span, parent and transcript, its audio a FLAC in
// OUT/files/ as long as its span; the silent file is dropped as no_speech; the run reconciles
// (the parents accounted as split), and one and two threads write the same.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "speech_audio.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// Sentence one, 1.5 s of silence, sentence two (espeak's own silence trimmed), at 16 kHz.
void two_sentences(const TempDir& dir, const std::string& name, const std::string& first,
                   const std::string& second) {
  for (int k = 0; k < 2; ++k) {
    speak(dir.file(fmt::format("{}{}.wav", name, k)), k == 0 ? first : second);
    sox(dir.file(fmt::format("{}{}.wav", name, k)), dir.file(fmt::format("{}{}t.wav", name, k)),
        "-r 16000",
        k == 0 ? "silence 1 0.02 1% reverse silence 1 0.02 1% reverse pad 0.5 1.5"
               : "silence 1 0.02 1% reverse silence 1 0.02 1% reverse pad 0 0.5");
  }
  must_run(fmt::format("sox '{}' '{}' '{}'", dir.file(name + "0t.wav"), dir.file(name + "1t.wav"),
                       dir.file(name + ".wav")));
}

std::string pipeline(const TempDir& dir) {
  return pipeline_file(
      dir, fmt::format(R"(input:
  paths: [{}]
  format: audio_manifest
output:
  path: {}
  format: jsonl
on_error: skip
stages:
  - stage: vad_segment
    model: {}
    min_silence_duration_ms: 300
  - stage: transcribe
    model: {}
    config: {}
)",
                       dir.file("manifest.jsonl"), dir.file("out"), dir.file("vad.onnx"),
                       dir.file("ctc.onnx"), dir.file("ctc.yaml")));
}

TEST(AudioSegments, SegmentsAreWrittenTranscribedAndAccountedFor) {
  TempDir dir;
  must_run("/usr/bin/python3 " + kSource + "/tests/models/vad_test_model.py build " +
           dir.file("vad.onnx"));
  must_run("/usr/bin/python3 " + kSource + "/tests/models/ctc_test_model.py build " +
           dir.file("ctc.onnx") + " " + dir.file("ctc.yaml"));
  two_sentences(dir, "a", "the quick brown fox", "jumps over the lazy dog");
  two_sentences(dir, "b", "hello world", "speech curation at scale");
  must_run(fmt::format("sox -n -r 16000 -c 1 -b 16 '{}' trim 0 2", dir.file("quiet.wav")));
  write_file(dir.file("manifest.jsonl"),
             fmt::format("{{\"audio_filepath\": \"{}\", \"text\": \"a\"}}\n"
                         "{{\"audio_filepath\": \"{}\", \"text\": \"b\"}}\n"
                         "{{\"audio_filepath\": \"{}\", \"text\": \"quiet\"}}\n",
                         dir.file("a.wav"), dir.file("b.wav"), dir.file("quiet.wav")));
  const std::string yaml = pipeline(dir);
  std::string output;
  ASSERT_EQ(winnow("run " + yaml + " --no-progress --threads 2", &output), 0) << output;
  EXPECT_THAT(output, HasSubstr("reconciled"));
  simdjson::dom::parser parser;
  const std::string kept = read_file(dir.file("out/manifest.jsonl"));
  std::vector<std::string> lines = split_lines(kept);
  ASSERT_EQ(lines.size(), 4u) << kept;
  for (const std::string& text : lines) {
    simdjson::dom::element item = parser.parse(text);
    const std::string_view parent = item["parent_id"];
    EXPECT_TRUE(parent == dir.file("a.wav") || parent == dir.file("b.wav")) << text;
    EXPECT_FALSE(std::string_view(item["pred_text"]).empty()) << text;
    const double span = double(item["segment_end"]) - double(item["segment_start"]);
    const std::string flac =
        dir.file("out/" + std::string(std::string_view(item["audio_filepath"])));
    EXPECT_NEAR(soxi_seconds(flac), span, 1.0 / 16000 + 1e-6) << text;
    EXPECT_NEAR(double(item["duration"]), span, 1.0 / 16000 + 1e-6) << text;
    EXPECT_GT(span, 0.5) << text;
  }
  const std::string rejected = read_decompressed(dir.file("out/rejected/manifest.jsonl"));
  EXPECT_THAT(rejected, HasSubstr("no_speech"));
  EXPECT_THAT(rejected, HasSubstr("quiet.wav"));
  // The same at one thread.
  ASSERT_EQ(winnow("run " + yaml + " --no-progress --threads 1 -o " + dir.file("out1"), &output), 0)
      << output;
  EXPECT_EQ(read_file(dir.file("out1/manifest.jsonl")), kept);
}

}  // namespace
}  // namespace winnow::testing
