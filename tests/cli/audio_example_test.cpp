// examples/audio.yaml through the real binary on scripts/make_audio_corpus's speech (espeak-ng
// sentences padded with silence, mixed with noise, band-limited, in every input format, and
// bad files beside them): every manifest line is accounted for (kept + dropped + errors) with
// the outcome the corpus planted; kept audio is 16 kHz mono FLAC that sox reads; the output is
// the same at one and two threads; under on_error: fail each kind of bad file stops the run, in
// a manifest and in a folder of audio files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>

#include "speech_audio.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

std::string run_example(const TempDir& dir, const std::string& out, const std::string& flags) {
  std::string output;
  EXPECT_EQ(winnow("run " + kSource + "/examples/audio.yaml -i " + dir.file("corpus/manifest.jsonl") +
                       " -o " + dir.file(out) + " --no-progress " + flags,
                   &output),
            0)
      << output;
  return output;
}

// What the corpus planted for each manifest line (1-based), from its "expect" member.
std::map<uint64_t, std::string> planted(const std::string& manifest) {
  std::map<uint64_t, std::string> expect;
  simdjson::dom::parser parser;
  uint64_t line = 0;
  for (const std::string& text : split_lines(read_file(manifest))) {
    expect[++line] = std::string(std::string_view(parser.parse(text)["expect"]));
  }
  return expect;
}

TEST(AudioExample, EveryLineIsAccountedForAsPlanted) {
  TempDir dir;
  must_run(kSource + "/scripts/make_audio_corpus " + dir.file("corpus"));
  const auto expect = planted(dir.file("corpus/manifest.jsonl"));
  const std::string report = run_example(dir, "out", "--threads 2");
  EXPECT_THAT(report, HasSubstr("reconciled"));
  const std::string stats = dir.file("out/stats.json");
  EXPECT_EQ(stats_total(stats, "documents"), expect.size());
  EXPECT_EQ(stats_total(stats, "kept") + stats_total(stats, "dropped") +
                stats_total(stats, "errors"),
            expect.size());
  simdjson::dom::parser parser;
  size_t kept = 0, dropped = 0, errors = 0;
  for (const std::string& text : split_lines(read_file(dir.file("out/manifest.jsonl")))) {
    simdjson::dom::element item = parser.parse(text);
    ++kept;
    EXPECT_EQ(std::string_view(item["expect"]), "kept") << text;
    const std::string flac = dir.file("out/" + std::string(std::string_view(item["audio_filepath"])));
    std::string info;
    ASSERT_EQ(run_command("soxi '" + flac + "'", &info), 0) << info;
    EXPECT_THAT(info, HasSubstr("Sample Rate    : 16000"));
    EXPECT_THAT(info, HasSubstr("Channels       : 1"));
    EXPECT_NEAR(soxi_seconds(flac), double(item["duration"]), 1e-3);
  }
  for (const std::string& text : split_lines(read_decompressed(dir.file("out/rejected/manifest.jsonl")))) {
    simdjson::dom::element item = parser.parse(text);
    ++dropped;
    EXPECT_EQ(std::string_view(item["expect"]), std::string_view(item["winnow_drop"]["reason"]));
    // she sells sea shells (4 words) against 10: 6 deletions.
    if (std::string_view(item["expect"]) == "high_wer") EXPECT_DOUBLE_EQ(double(item["wer"]), 0.6);
  }
  for (const std::string& text : split_lines(read_file(dir.file("out/errors/manifest.jsonl")))) {
    simdjson::dom::element error = parser.parse(text);
    ++errors;
    EXPECT_EQ(expect.at(uint64_t(error["line"])), std::string_view(error["error"])) << text;
  }
  EXPECT_EQ(kept, stats_total(stats, "kept"));
  EXPECT_EQ(dropped, stats_total(stats, "dropped"));
  EXPECT_EQ(errors, stats_total(stats, "errors"));
  EXPECT_EQ(kept, 6u);
  // The same output at one thread, FLAC bytes included.
  run_example(dir, "out1", "--threads 1");
  EXPECT_EQ(read_file(dir.file("out1/manifest.jsonl")), read_file(dir.file("out/manifest.jsonl")));
  EXPECT_EQ(read_file(dir.file("out1/files/manifest-0000000000000000.flac")),
            read_file(dir.file("out/files/manifest-0000000000000000.flac")));
}

TEST(AudioExample, UnderOnErrorFailEachBadFileStopsTheRun) {
  TempDir dir;
  must_run(kSource + "/scripts/make_audio_corpus " + dir.file("corpus"));
  std::string output;
  EXPECT_NE(winnow("run " + kSource + "/examples/audio.yaml -i " +
                       dir.file("corpus/manifest.jsonl") + " -o " + dir.file("out") +
                       " --no-progress --on-error fail",
                   &output),
            0);
  EXPECT_THAT(output, HasSubstr("manifest.jsonl:11: " + dir.file("corpus/audio/missing.wav")));
  EXPECT_THAT(output, HasSubstr("on_error: fail"));
  // Each kind of bad file alone after a good line, in a manifest and as a file of a folder.
  for (const char* bad : {"missing.wav", "empty.wav", "cut.wav", "cut.flac", "zero.wav", "text.mp3"}) {
    SCOPED_TRACE(bad);
    write_file(dir.file("corpus/one.jsonl"), std::string("{\"audio_filepath\": \"audio/fox.wav\"}\n") +
                                                 "{\"audio_filepath\": \"audio/" + bad + "\"}\n");
    EXPECT_NE(winnow("run " + kSource + "/examples/audio.yaml -i " + dir.file("corpus/one.jsonl") +
                         " -o " + dir.file(std::string("one-") + bad) + " --no-progress --on-error fail",
                     &output),
              0);
    EXPECT_THAT(output, HasSubstr("one.jsonl:2: " + dir.file("corpus/audio/") + bad));
    if (std::string_view(bad) == "missing.wav") continue;
    must_run("mkdir -p " + dir.file(std::string("folder-") + bad));
    must_run("cp " + dir.file("corpus/audio/fox.wav") + " " + dir.file("corpus/audio/") + bad + " " +
             dir.file(std::string("folder-") + bad));
    const std::string pipeline = pipeline_file(dir, "input: {format: audio}\n");
    EXPECT_NE(winnow("run " + pipeline + " -i " + dir.file(std::string("folder-") + bad) + " -o " +
                         dir.file(std::string("out-") + bad) + " --no-progress --on-error fail",
                     &output),
              0);
    EXPECT_THAT(output, HasSubstr(dir.file(std::string("folder-") + bad + "/" + bad) + ": "));
    // Under skip the same folder runs, its good file kept and the bad one an error record.
    EXPECT_EQ(winnow("run " + pipeline + " -i " + dir.file(std::string("folder-") + bad) + " -o " +
                         dir.file(std::string("skip-") + bad) + " --no-progress --on-error skip",
                     &output),
              0)
        << output;
    EXPECT_EQ(stats_total(dir.file(std::string("skip-") + bad + "/stats.json"), "kept"), 1u);
    EXPECT_EQ(stats_total(dir.file(std::string("skip-") + bad + "/stats.json"), "errors"), 1u);
  }
}

// The text filters read an audio item's reference transcript (its manifest's text).
TEST(AudioExample, TextFiltersReadTheTranscript) {
  TempDir dir;
  speak(dir.file("a.wav"), "hello");
  write_file(dir.file("m.jsonl"),
             "{\"audio_filepath\": \"a.wav\", \"text\": \"a long enough reference transcript\"}\n"
             "{\"audio_filepath\": \"a.wav\", \"text\": \"short\"}\n");
  const std::string pipeline = pipeline_file(
      dir, "input: {format: audio_manifest}\noutput: {format: jsonl}\n"
           "stages:\n  - {stage: text_length, min_chars: 10}\n");
  std::string output;
  ASSERT_EQ(winnow("run " + pipeline + " -i " + dir.file("m.jsonl") + " -o " + dir.file("out") +
                       " --no-progress",
                   &output),
            0)
      << output;
  EXPECT_EQ(stats_total(dir.file("out/stats.json"), "kept"), 1u);
  EXPECT_THAT(read_file(dir.file("out/m.jsonl")), HasSubstr("a long enough reference transcript"));
  EXPECT_THAT(read_file(dir.file("out/rejected/m.jsonl")), HasSubstr("\"stage\":\"text_length\",\"reason\":\"too_short\""));
}

}  // namespace
}  // namespace winnow::testing
