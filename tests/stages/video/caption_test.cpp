// caption against a local OpenAI-compatible server (openai_stub_server.py) that answers from
// what it is sent: the stage sends the right windows of the right frames with the anchor's
// prompt, retries what a retry can fix (5xx, 429, a timeout, a refused connection) with
// growing waits, gives up at once on a 4xx or a malformed reply, and a clip that still fails
// is an error record naming the clip and the status under on_error: skip, or stops the stage
// under fail. The API key travels in the header and never in a message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdlib>

#include "io/video_file_reader.h"
#include "synthetic_video.h"
#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "stages/openai_stub.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kAnchorPrompt =
    "Elaborate on the visual and narrative elements of the video in detail.";

// A 10 s video (96 x 64, 25 fps) split into clips [0, 4), [4, 8), [8, 10).
std::unique_ptr<DocBatch> clips_batch(const TempDir& dir, ReasonTable& reasons) {
  VideoSpec spec;
  spec.frames = 250;
  std::string error;
  EXPECT_TRUE(write_video(dir.file("v.mp4"), spec, shots_painter({}), &error)) << error;
  auto batch = VideoFileReader(dir.file("v.mp4"), 0).next();
  StageContext context(reasons, "split", 0, 0);
  auto split = build_stage(split_video_spec(),
                           {{"method", std::string("fixed_stride")}, {"clip_len_s", 4.0}}, context);
  EXPECT_TRUE(split.is_ok());
  EXPECT_TRUE((*split)->process(*batch).is_ok());
  return batch;
}

struct LogEntry {
  std::string behaviour;
  double t = 0;
  int64_t images = 0;
  std::vector<std::string> sizes;
  std::string frames;  // a hash of the images: the same window sent again has the same
  std::string prompt, model, authorization;
  int64_t max_tokens = 0;
  double temperature = -1;
};

std::vector<LogEntry> read_log(const std::string& path) {
  std::vector<LogEntry> out;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(read_file(path))) {
    if (line.empty()) continue;
    simdjson::dom::element e = parser.parse(line);
    LogEntry entry;
    entry.behaviour = std::string(e["behaviour"].get_string().value());
    entry.t = e["t"].get_double().value();
    entry.images = e["images"].get_int64().value();
    entry.frames = std::string(e["frames"].get_string().value());
    for (auto s : e["sizes"].get_array()) entry.sizes.emplace_back(s.get_string().value());
    entry.prompt = std::string(e["prompt"].get_string().value());
    entry.model = std::string(e["model"].get_string().value());
    entry.authorization = std::string(e["authorization"].get_string().value());
    entry.max_tokens = e["max_tokens"].get_int64().value();
    entry.temperature = e["temperature"].get_double().value();
    out.push_back(std::move(entry));
  }
  return out;
}

struct CaptionRun {
  Status status = Status::ok();
  std::unique_ptr<DocBatch> batch;
  ReasonTable reasons;
};

// Splits the video, then captions its clips through a stub started with `server_args`.
void caption_clips(CaptionRun& run, const TempDir& dir, const std::string& url, bool skip_errors,
                   std::map<std::string, StageParams::Value> params) {
  run.batch = clips_batch(dir, run.reasons);
  StageContext context(run.reasons, "caption", 1, 42);
  context.set_skip_errors(skip_errors);
  params["endpoint"] = url;
  params.try_emplace("window_frames", int64_t(4));
  params.try_emplace("max_side", int64_t(48));
  params.try_emplace("concurrency", int64_t(1));  // requests in order: the log is a sequence
  params.try_emplace("backoff_s", 0.05);
  // Far above what the stub takes on a loaded machine: only the hang test's attempts time out.
  params.try_emplace("timeout_s", 10.0);
  auto stage = build_stage(caption_spec(), params, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  run.status = (*stage)->process(*run.batch);
}

std::string captions_of(const DocBatch& batch, size_t row) {
  const AnnotationColumn* c = batch.find_annotation("captions");
  return c && c->has(row) ? c->string_at(row) : "";
}

TEST(Caption, SendsEachWindowsFramesWithThePromptAndStoresTheTextsPerWindow) {
  TempDir dir;
  OpenAiStub stub({"--log", dir.file("log.jsonl")});
  ASSERT_NE(stub.port(), 0);
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), false, {});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  // Rows: the video (split), then three clips. At 2 fps: 8, 8 and 4 frames; windows of 4.
  ASSERT_EQ(run.batch->size(), 4u);
  const std::vector<size_t> windows = {2, 2, 1};
  simdjson::dom::parser parser;
  for (size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const size_t row = k + 1;
    EXPECT_TRUE(run.batch->kept(row));
    std::string json = captions_of(*run.batch, row);
    simdjson::dom::array captions = parser.parse(json).get_array();
    ASSERT_EQ(captions.size(), windows[k]);
    size_t w = 0;
    for (simdjson::dom::element window : captions) {
      EXPECT_EQ(window["window"].get_int64().value(), int64_t(w));
      EXPECT_EQ(window["frames"].get_int64().value(), 4);
      // Frames 96 x 64 scaled to a longer side of 48; four of them in each request.
      std::string_view text = window["text"].get_string().value();
      EXPECT_THAT(std::string(text), HasSubstr("images=4 sizes=48x32,48x32,48x32,48x32 "));
      // Each window's span: its first sampled frame to half a second after its last.
      const double begin = window["span_s"].at(0).get_double().value();
      const double end = window["span_s"].at(1).get_double().value();
      EXPECT_NEAR(begin, 4.0 * k + 2.0 * w, 0.05);
      EXPECT_NEAR(end, begin + 2.0, 0.05);
      ++w;
    }
  }
  // Different frames, different hashes: each window got its own frames.
  EXPECT_NE(captions_of(*run.batch, 1), captions_of(*run.batch, 2));
  const auto log = read_log(dir.file("log.jsonl"));
  ASSERT_EQ(log.size(), 5u);
  for (const LogEntry& e : log) {
    EXPECT_EQ(e.prompt, kAnchorPrompt);
    EXPECT_EQ(e.model, "Qwen/Qwen2.5-VL-7B-Instruct");
    EXPECT_EQ(e.max_tokens, 512);
    EXPECT_EQ(e.temperature, 0);
    EXPECT_EQ(e.authorization, "");  // no api_key_env: no header
  }
}

TEST(Caption, TheSameFramesGiveTheSameCaptionsOnAnotherRun) {
  TempDir dir;
  OpenAiStub stub({});
  CaptionRun first, second;
  caption_clips(first, dir, stub.base_url(), false, {{"concurrency", int64_t(4)}});
  caption_clips(second, dir, stub.base_url(), false, {{"concurrency", int64_t(1)}});
  ASSERT_TRUE(first.status.is_ok() && second.status.is_ok());
  for (size_t row = 1; row < 4; ++row) {
    EXPECT_FALSE(captions_of(*first.batch, row).empty());
    EXPECT_EQ(captions_of(*first.batch, row), captions_of(*second.batch, row));
  }
}

// The attempts of each window (by its frames' hash), in order.
std::map<std::string, std::vector<LogEntry>> by_window(const std::vector<LogEntry>& log) {
  std::map<std::string, std::vector<LogEntry>> out;
  for (const LogEntry& e : log) out[e.frames].push_back(e);
  return out;
}

TEST(Caption, ServerErrorsAndRateLimitsAreRetried) {
  TempDir dir;
  OpenAiStub stub({"--script", "500,503,429", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), false, {});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  for (size_t row = 1; row < 4; ++row) EXPECT_FALSE(captions_of(*run.batch, row).empty());
  const auto log = read_log(dir.file("log.jsonl"));
  // Five windows; the first three requests failed and each failure was sent again. While one
  // waits for its retry the others go on; which window a failure hits (a retry that comes due
  // early can take the next scripted fault too) depends on timing, the totals do not.
  ASSERT_EQ(log.size(), 8u);
  const auto windows = by_window(log);
  ASSERT_EQ(windows.size(), 5u);
  size_t retries = 0;
  for (const auto& [hash, attempts] : windows) {
    EXPECT_EQ(attempts.back().behaviour, "ok");
    for (size_t a = 0; a + 1 < attempts.size(); ++a) EXPECT_NE(attempts[a].behaviour, "ok");
    retries += attempts.size() - 1;
  }
  EXPECT_EQ(retries, 3u);
}

TEST(Caption, RetriesWaitLongerEachTime) {
  TempDir dir;
  OpenAiStub stub({"--then", "500", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), true, {{"backoff_s", 0.2}});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  for (const auto& [hash, attempts] : by_window(read_log(dir.file("log.jsonl")))) {
    ASSERT_EQ(attempts.size(), 4u);  // 1 + max_retries
    // At least 0.2 s, 0.4 s, 0.8 s between the attempts (lower bounds only: the backoff is
    // behaviour, not speed).
    EXPECT_GE(attempts[1].t - attempts[0].t, 0.2);
    EXPECT_GE(attempts[2].t - attempts[1].t, 0.4);
    EXPECT_GE(attempts[3].t - attempts[2].t, 0.8);
  }
}

// A rate limit's Retry-After is waited for when longer than the backoff (up to max_backoff_s).
TEST(Caption, ARateLimitsRetryAfterIsHonoured) {
  TempDir dir;
  OpenAiStub stub({"--script", "429r2", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), true, {{"backoff_s", 0.05}});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  const auto log = read_log(dir.file("log.jsonl"));
  for (const auto& [hash, attempts] : by_window(log)) {
    if (attempts.front().behaviour != "429r2") continue;
    ASSERT_EQ(attempts.size(), 2u);
    EXPECT_GE(attempts[1].t - attempts[0].t, 2.0);  // not the 0.05 s backoff
  }
  // Capped by max_backoff_s (waiting the 600 s asked would pass the test's timeout).
  TempDir capped_dir;
  OpenAiStub capped({"--script", "429r600", "--log", capped_dir.file("log.jsonl")});
  CaptionRun capped_run;
  caption_clips(capped_run, capped_dir, capped.base_url(), true,
                {{"backoff_s", 0.05}, {"max_backoff_s", 0.5}});
  ASSERT_TRUE(capped_run.status.is_ok()) << capped_run.status.message();
  size_t rate_limited = 0;
  for (const auto& [hash, attempts] : by_window(read_log(capped_dir.file("log.jsonl")))) {
    if (attempts.front().behaviour != "429r600") continue;
    ++rate_limited;
    ASSERT_EQ(attempts.size(), 2u);
    EXPECT_EQ(attempts[1].behaviour, "ok");
  }
  EXPECT_EQ(rate_limited, 1u);
}

TEST(Caption, AnAttemptThatHangsPastTheTimeoutIsRetried) {
  TempDir dir;
  OpenAiStub stub({"--script", "hang", "--hang-s", "4", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), false, {{"timeout_s", 1.0}});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  for (size_t row = 1; row < 4; ++row) EXPECT_FALSE(captions_of(*run.batch, row).empty());
  const auto log = read_log(dir.file("log.jsonl"));
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log[0].behaviour, "hang");
  // The window that hung was sent again (and answered: its clip has its captions).
  const auto windows = by_window(log);
  EXPECT_EQ(windows.size(), 5u);
  EXPECT_GE(windows.at(log[0].frames).size(), 2u);
}

TEST(Caption, AClipWhoseEndpointKeepsFailingIsAnErrorRecordUnderSkip) {
  TempDir dir;
  OpenAiStub stub({"--then", "500", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), true, {{"max_retries", int64_t(2)}});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  const AnnotationColumn* messages = run.batch->find_annotation(kRowErrorField);
  ASSERT_NE(messages, nullptr);
  for (size_t row = 1; row < 4; ++row) {
    SCOPED_TRACE(row);
    EXPECT_EQ(reason_of(*run.batch, run.reasons, row), "caption/endpoint_failed");
    EXPECT_TRUE(run.reasons.at(run.batch->drop_reason(row)).error());
    const std::string& message = messages->string_at(row);
    EXPECT_THAT(message, HasSubstr(std::string(run.batch->id(row))));
    EXPECT_THAT(message, HasSubstr("v.mp4"));
    EXPECT_THAT(message, HasSubstr("window 0 of"));
    EXPECT_THAT(message, HasSubstr("HTTP 500"));
    EXPECT_THAT(message, HasSubstr("after 3 attempts"));
    EXPECT_TRUE(captions_of(*run.batch, row).empty());
  }
}

TEST(Caption, UnderFailTheFirstFailingClipStopsTheStageNamingIt) {
  TempDir dir;
  OpenAiStub stub({"--then", "500"});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), false, {{"max_retries", int64_t(1)}});
  ASSERT_FALSE(run.status.is_ok());
  EXPECT_THAT(run.status.message(), HasSubstr(std::string(run.batch->id(1))));
  EXPECT_THAT(run.status.message(), HasSubstr("HTTP 500"));
  EXPECT_THAT(run.status.message(), HasSubstr("on_error: fail"));
}

TEST(Caption, ABadRequestIsNotRetried) {
  TempDir dir;
  OpenAiStub stub({"--script", "400", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), true, {});
  ASSERT_TRUE(run.status.is_ok());
  EXPECT_EQ(reason_of(*run.batch, run.reasons, 1), "caption/endpoint_failed");
  EXPECT_THAT(run.batch->find_annotation(kRowErrorField)->string_at(1),
              HasSubstr("HTTP 400: {\"error\""));
  EXPECT_THAT(run.batch->find_annotation(kRowErrorField)->string_at(1), HasSubstr("1 attempt"));
  // The clip's other window was still sent; the other clips are captioned.
  EXPECT_EQ(read_log(dir.file("log.jsonl")).size(), 5u);
  EXPECT_TRUE(run.batch->kept(2));
  EXPECT_TRUE(run.batch->kept(3));
}

TEST(Caption, AMalformedReplyIsABadReplyErrorAndNotRetried) {
  TempDir dir;
  OpenAiStub stub({"--script", "ok,malformed", "--log", dir.file("log.jsonl")});
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), true, {});
  ASSERT_TRUE(run.status.is_ok());
  EXPECT_EQ(reason_of(*run.batch, run.reasons, 1), "caption/bad_reply");
  EXPECT_THAT(run.batch->find_annotation(kRowErrorField)->string_at(1),
              HasSubstr("window 1 of 2: malformed reply"));
  EXPECT_EQ(read_log(dir.file("log.jsonl")).size(), 5u);
  EXPECT_TRUE(run.batch->kept(2));
}

TEST(Caption, ARefusedConnectionIsRetriedThenNamedWithCurlsError) {
  TempDir dir;
  int port = 0;
  {
    OpenAiStub gone({});  // a port that was just free, now closed
    port = gone.port();
  }
  CaptionRun run;
  caption_clips(run, dir, "http://127.0.0.1:" + std::to_string(port) + "/v1", true,
                {{"max_retries", int64_t(1)}});
  ASSERT_TRUE(run.status.is_ok());
  EXPECT_EQ(reason_of(*run.batch, run.reasons, 1), "caption/endpoint_failed");
  EXPECT_THAT(run.batch->find_annotation(kRowErrorField)->string_at(1), HasSubstr("curl error 7"));
  EXPECT_THAT(run.batch->find_annotation(kRowErrorField)->string_at(1),
              HasSubstr("after 2 attempts"));
}

TEST(Caption, TheApiKeyGoesInTheHeaderAndAMissingVariableIsRefusedByName) {
  TempDir dir;
  OpenAiStub stub({"--log", dir.file("log.jsonl")});
  setenv("WINNOW_CAPTION_TEST_KEY", "sk-test-4242", 1);
  CaptionRun run;
  caption_clips(run, dir, stub.base_url(), false,
                {{"api_key_env", std::string("WINNOW_CAPTION_TEST_KEY")}});
  ASSERT_TRUE(run.status.is_ok());
  for (const LogEntry& e : read_log(dir.file("log.jsonl"))) {
    EXPECT_EQ(e.authorization, "Bearer sk-test-4242");
  }
  unsetenv("WINNOW_CAPTION_TEST_KEY");
  ReasonTable reasons;
  StageContext context(reasons, "caption", 0, 0);
  auto stage = build_stage(caption_spec(),
                           {{"api_key_env", std::string("WINNOW_CAPTION_TEST_KEY")}}, context);
  ASSERT_FALSE(stage.is_ok());
  EXPECT_THAT(stage.status().message(), HasSubstr("WINNOW_CAPTION_TEST_KEY"));
  EXPECT_THAT(stage.status().message(), HasSubstr("not set"));
}

TEST(Caption, BadParametersAreRefusedNamingTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "caption", 0, 0);
  for (const auto& [key, value] : std::vector<std::pair<std::string, StageParams::Value>>{
           {"endpoint", std::string("127.0.0.1:8000")},
           {"window_frames", int64_t(0)},
           {"sample_fps", 0.0},
           {"jpeg_qscale", int64_t(1)},
           {"concurrency", int64_t(0)},
           {"timeout_s", 0.0},
           {"max_backoff_s", 0.5}}) {
    SCOPED_TRACE(key);
    auto stage = build_stage(caption_spec(), {{key, value}}, context);
    ASSERT_FALSE(stage.is_ok());
    EXPECT_THAT(stage.status().message(), HasSubstr(key));
  }
}

}  // namespace
}  // namespace winnow::testing
