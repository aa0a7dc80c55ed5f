// examples/video_captions.yaml through the real binary against a local OpenAI-compatible stub
// (tests/stages/openai_stub_server.py): every kept clip's meta holds its captions, the
// metas and clips are byte-identical at one and two threads, and when the endpoint keeps
// failing each clip is an error record in errors/ naming it and the HTTP status (on_error:
// skip, the funnel still reconciles) or the run stops naming it (fail).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "synthetic_video.h"
#include "stages/openai_stub.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// The example pointed at `url`, with `edits` (text replacements) applied.
std::string example_for(const TempDir& dir, const std::string& url,
                        const std::vector<std::pair<std::string, std::string>>& edits = {}) {
  std::string yaml = read_file(kSource + "/examples/video_captions.yaml");
  const std::string endpoint = "http://127.0.0.1:8000/v1";
  yaml.replace(yaml.find(endpoint), endpoint.size(), url);
  for (const auto& [from, to] : edits) {
    EXPECT_NE(yaml.find(from), std::string::npos) << from;
    yaml.replace(yaml.find(from), from.size(), to);
  }
  const std::string path =
      dir.file("captions" + std::to_string(std::hash<std::string>()(yaml)) + ".yaml");
  write_file(path, yaml);
  return path;
}

TEST(VideoCaptionsExample, EveryKeptClipIsCaptionedTheSameAtOneAndTwoThreads) {
  TempDir dir;
  std::string error;
  fs::create_directories(dir.file("corpus"));
  ASSERT_TRUE(write_video_corpus(dir.file("corpus"), &error)) << error;
  OpenAiStub stub({});
  ASSERT_NE(stub.port(), 0);
  const std::string yaml = example_for(dir, stub.base_url());
  std::string out;
  for (const char* threads : {"1", "2"}) {
    ASSERT_EQ(
        winnow("run " + yaml + " -i " + dir.file("corpus") + " -o " +
                   dir.file(std::string("out") + threads) + " --no-progress --threads " + threads,
               &out),
        0)
        << out;
    EXPECT_THAT(out, HasSubstr("reconciled"));
  }
  const std::vector<std::string> metas = names_in(dir.file("out1/metas"));
  ASSERT_GE(metas.size(), 4u);
  EXPECT_EQ(names_in(dir.file("out2/metas")), metas);
  simdjson::dom::parser parser;
  for (const std::string& name : metas) {
    SCOPED_TRACE(name);
    const std::string meta = read_file(dir.file("out1/metas/" + name));
    EXPECT_EQ(meta, read_file(dir.file("out2/metas/" + name)));
    const std::string clip = name.substr(0, name.size() - 5) + ".mp4";
    EXPECT_TRUE(read_file(dir.file("out1/clips/" + clip)) ==
                read_file(dir.file("out2/clips/" + clip)));
    simdjson::dom::element root = parser.parse(meta);
    simdjson::dom::array captions = root["captions"].get_array();
    ASSERT_EQ(captions.size(), 1u);  // clips shorter than 128 s: one window
    std::string_view text = captions.at(0)["text"].get_string().value();
    EXPECT_THAT(std::string(text), HasSubstr("images="));
    // Every frame at 2 fps of the clip's span, in its one window.
    const double begin = root["span_s"].at(0).get_double().value();
    const double end = root["span_s"].at(1).get_double().value();
    EXPECT_NEAR(double(captions.at(0)["frames"].get_int64().value()), (end - begin) * 2, 1.0);
  }
}

TEST(VideoCaptionsExample, AFailingEndpointMakesErrorRecordsUnderSkipAndStopsTheRunUnderFail) {
  TempDir dir;
  std::string error;
  fs::create_directories(dir.file("corpus"));
  VideoSpec spec;
  spec.frames = 160;
  ASSERT_TRUE(write_video(dir.file("corpus/shots.mp4"), spec, shots_painter({80}), &error))
      << error;
  OpenAiStub stub({"--then", "503"});
  const std::vector<std::pair<std::string, std::string>> fast = {
      {"max_retries: 3", "max_retries: 1"}, {"backoff_s: 1.0", "backoff_s: 0.05"}};
  std::string out;
  ASSERT_EQ(winnow("run " + example_for(dir, stub.base_url(), fast) + " -i " + dir.file("corpus") +
                       " -o " + dir.file("skip") + " --no-progress",
                   &out),
            0)
      << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  EXPECT_TRUE(names_in(dir.file("skip/metas")).empty());
  simdjson::dom::parser parser;
  simdjson::dom::element summary = parser.parse(read_file(dir.file("skip/summary.json")));
  const uint64_t made = summary["clips"]["made"].get_uint64().value();
  EXPECT_GE(made, 1u);
  EXPECT_EQ(summary["clips"]["errors"].get_uint64().value(), made);
  EXPECT_EQ(summary["errors_by_kind"]["caption/endpoint_failed"].get_uint64().value(), made);
  EXPECT_TRUE(summary["reconciles"].get_bool().value());
  std::string errors;
  run_command("cat " + dir.file("skip/errors/*"), &errors);
  EXPECT_THAT(errors, HasSubstr("\"error\":\"caption/endpoint_failed\""));
  EXPECT_THAT(errors, HasSubstr("HTTP 503"));
  EXPECT_THAT(errors, HasSubstr("shots.mp4"));

  std::string yaml = read_file(example_for(dir, stub.base_url(), fast));
  yaml.replace(yaml.find("on_error: skip"), 14, "on_error: fail");
  write_file(dir.file("fail.yaml"), yaml);
  EXPECT_EQ(winnow("run " + dir.file("fail.yaml") + " -i " + dir.file("corpus") + " -o " +
                       dir.file("fail") + " --no-progress",
                   &out),
            1)
      << out;
  EXPECT_THAT(out, HasSubstr("caption: clip "));
  EXPECT_THAT(out, HasSubstr("HTTP 503"));
}

}  // namespace
}  // namespace winnow::testing
