// llm_rewrite against a local OpenAI-compatible server (tests/stages/openai_stub_server.py):
// each preset sends its system prompt and the document in its template, greedy and seeded;
// the post-processing of the replies matches NeMo's Nemotron-CC rules restated in Python
// (rewrite_reference.py) on fixed and random replies; the QA draws are the same on every run;
// the reply lands in a field, the text or a new document; rate limits and server errors are
// retried, and a malformed reply is an error record naming the document (or ends the stage).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

#include "stages/builtin_stages.h"
#include "stages/filter_test_support.h"
#include "stages/openai_stub.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

struct LogEntry {
  std::string behaviour, prompt, model;
  std::optional<std::string> system;
  std::vector<std::string> roles;
  int64_t max_tokens = 0, seed = -1;
  double temperature = -1, top_p = -1;
};

std::vector<LogEntry> read_log(const std::string& path) {
  std::vector<LogEntry> out;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(read_file(path))) {
    if (line.empty()) continue;
    simdjson::dom::element e = parser.parse(line);
    LogEntry entry;
    entry.behaviour = std::string(e["behaviour"].get_string().value());
    entry.prompt = std::string(e["prompt"].get_string().value());
    entry.model = std::string(e["model"].get_string().value());
    std::string_view system;
    if (e["system"].get(system) == simdjson::SUCCESS) entry.system = std::string(system);
    for (auto r : e["roles"].get_array()) entry.roles.emplace_back(r.get_string().value());
    entry.max_tokens = e["max_tokens"].get_int64().value();
    entry.seed = e["seed"].get_int64().value();
    entry.temperature = e["temperature"].get_double().value();
    entry.top_p = e["top_p"].get_double().value();
    out.push_back(std::move(entry));
  }
  return out;
}

// One echoing stub for every test that needs no scripted fault: starting Python costs about a
// second on a loaded machine. Its log is shared; a test reads the entries after `from`.
struct EchoStub {
  TempDir dir;
  OpenAiStub stub{{"--then", "echo", "--log", dir.file("log.jsonl")}};
};
EchoStub& echo_stub() {
  static EchoStub echo;
  return echo;
}
std::vector<LogEntry> echo_log(size_t from) {
  const std::string path = echo_stub().dir.file("log.jsonl");
  if (!std::filesystem::exists(path)) return {};  // nothing sent yet
  std::vector<LogEntry> log = read_log(path);
  log.erase(log.begin(), log.begin() + std::min(from, log.size()));
  return log;
}
size_t echo_log_size() { return echo_log(0).size(); }

struct RewriteRun {
  Status status = Status::ok();
  std::unique_ptr<DocBatch> batch;
  ReasonTable reasons;
};

// Rewrites `texts` (ids orig-0, orig-1, ...) through the stub at `url`.
void rewrite(RewriteRun& run, const std::string& url, const std::vector<std::string>& texts,
             std::map<std::string, StageParams::Value> params, bool skip_errors = false) {
  run.batch = make_text_batch(texts);
  StageContext context(run.reasons, "llm_rewrite", 1, 42);
  context.set_skip_errors(skip_errors);
  params["endpoint"] = url;
  params.try_emplace("concurrency", int64_t(4));
  params.try_emplace("backoff_s", 0.05);
  params.try_emplace("timeout_s", 10.0);  // far above what the stub takes on a loaded machine
  auto stage = build_stage(llm_rewrite_spec(), params, context);
  ASSERT_TRUE(stage.is_ok()) << stage.status().message();
  run.status = (*stage)->process(*run.batch);
}

std::string field_of(const DocBatch& batch, const std::string& field, size_t row) {
  const AnnotationColumn* c = batch.find_annotation(field);
  return c && c->has(row) ? c->string_at(row) : "<none>";
}

size_t count_of(std::string_view haystack, std::string_view needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string_view::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

TEST(LlmRewrite, EachPresetSendsItsSystemPromptAndTheDocumentInItsTemplate) {
  // What each preset's reply must carry for its post-processing, asked for in its prompt, and
  // NeMo's output field.
  struct Expect {
    std::string preset, field;
    std::vector<std::string> markers;
  };
  const std::vector<Expect> presets = {
      {"wikipedia", "rephrased", {"\"Here is a paraphrased version:\"", "Wikipedia"}},
      {"diverse_qa",
       "diverse_qa",
       {"Here are the questions and answers based on the provided text:\n- Question: ",
        " Answer: "}},
      {"distill", "distill", {"\"Paraphrased Text:\""}},
      {"extract_knowledge", "extract_knowledge", {"passage"}},
      {"knowledge_list", "knowledge_list", {"list"}},
  };
  const std::string document = "The Danube flows {east} through ten countries.";
  std::set<std::string> systems;
  ASSERT_NE(echo_stub().stub.port(), 0);
  for (const Expect& e : presets) {
    SCOPED_TRACE(e.preset);
    const size_t before = echo_log_size();
    RewriteRun run;
    rewrite(run, echo_stub().stub.base_url(), {document},
            {{"preset", e.preset}, {"postprocess", false}});
    ASSERT_TRUE(run.status.is_ok()) << run.status.message();
    const auto log = echo_log(before);
    ASSERT_EQ(log.size(), 1u);
    // Unprocessed, the reply (the prompt, echoed) lands in NeMo's field for the task.
    EXPECT_EQ(field_of(*run.batch, e.field, 0), log[0].prompt);
    EXPECT_EQ(log[0].roles, (std::vector<std::string>{"system", "user"}));
    ASSERT_TRUE(log[0].system.has_value());
    EXPECT_GT(log[0].system->size(), 40u);
    systems.insert(*log[0].system);
    EXPECT_EQ(count_of(log[0].prompt, document), 1u);  // its braces are not the template's
    for (const std::string& marker : e.markers) EXPECT_THAT(log[0].prompt, HasSubstr(marker));
    EXPECT_EQ(log[0].model, "meta/llama-3.3-70b-instruct");
    EXPECT_EQ(log[0].max_tokens, 1600);
    EXPECT_EQ(log[0].temperature, 0);
    EXPECT_EQ(log[0].top_p, 1);
    EXPECT_EQ(log[0].seed, 42);  // the pipeline seed
  }
  EXPECT_EQ(systems.size(), 2u);  // Nemotron-CC's general one, and distill's
}

TEST(LlmRewrite, APromptOrPromptFileReplacesThePresetsWithPythonsBraces) {
  TempDir dir;
  const std::string url = echo_stub().stub.base_url();
  const size_t before = echo_log_size();
  RewriteRun run;
  rewrite(run, url, {"doc {0}"},
          {{"prompt", std::string("Say {{hi}}: {document} / {document}")},
           {"system_prompt", std::string("Be brief.")},
           {"postprocess", false}});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  write_file(dir.file("nemo_template.txt"), "Text:\n{document}\n\nTask: rewrite it.");
  RewriteRun from_file;
  rewrite(from_file, url, {"second"},
          {{"prompt_file", dir.file("nemo_template.txt")},
           {"use_system_prompt", false},
           {"postprocess", false}});
  ASSERT_TRUE(from_file.status.is_ok()) << from_file.status.message();
  const auto log = echo_log(before);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].prompt, "Say {hi}: doc {0} / doc {0}");
  EXPECT_EQ(log[0].system, std::optional<std::string>("Be brief."));
  EXPECT_EQ(log[1].prompt, "Text:\nsecond\n\nTask: rewrite it.");
  EXPECT_EQ(log[1].roles, std::vector<std::string>{"user"});
  EXPECT_FALSE(log[1].system.has_value());
}

// The replies are the documents themselves (the stub echoes the prompt "{document}"), so each
// case of the reference goes through HTTP and back as the model's answer.
TEST(LlmRewrite, PostProcessingFollowsNemosRules) {
  std::string json;
  ASSERT_EQ(
      run_command("/usr/bin/python3 " + kSource + "/tests/stages/synthetic/rewrite_reference.py 60",
                  &json),
      0);
  simdjson::dom::parser parser;
  simdjson::dom::element expected = parser.parse(json);
  std::vector<std::string> cases;
  for (auto c : expected["cases"].get_array()) cases.emplace_back(c.get_string().value());
  const std::string url = echo_stub().stub.base_url();
  for (const std::string preset :
       {"wikipedia", "distill", "extract_knowledge", "knowledge_list", "diverse_qa"}) {
    SCOPED_TRACE(preset);
    RewriteRun run;
    rewrite(
        run, url, cases,
        {{"preset", preset}, {"prompt", std::string("{document}")}, {"max_num_pairs", int64_t(3)}});
    ASSERT_TRUE(run.status.is_ok()) << run.status.message();
    const std::string field = preset == "wikipedia" ? "rephrased" : preset;
    size_t row = 0;
    for (simdjson::dom::element want : expected[preset].get_array()) {
      SCOPED_TRACE(::testing::Message() << "case " << row << ": " << cases[row]);
      std::string_view drop;
      if (want["drop"].get(drop) == simdjson::SUCCESS) {
        EXPECT_EQ(reason_of(*run.batch, run.reasons, row), "llm_rewrite/" + std::string(drop));
      } else if (want.is_string()) {
        EXPECT_EQ(reason_of(*run.batch, run.reasons, row), "kept");
        EXPECT_EQ(field_of(*run.batch, field, row), std::string(want.get_string().value()));
      } else {
        // diverse_qa: the document, then 1 to 3 of its pairs, each once.
        EXPECT_EQ(reason_of(*run.batch, run.reasons, row), "kept");
        std::vector<std::string> pairs;
        for (auto p : want.get_array()) pairs.emplace_back(p.get_string().value());
        const std::string got = field_of(*run.batch, field, row);
        ASSERT_EQ(got.substr(0, cases[row].size() + 2), cases[row] + "\n\n");
        std::vector<std::string> chosen;
        std::string rest = got.substr(cases[row].size() + 2);
        for (size_t at; (at = rest.find("\n\n")) != std::string::npos; rest.erase(0, at + 2)) {
          chosen.push_back(rest.substr(0, at));
        }
        chosen.push_back(rest);
        EXPECT_GE(chosen.size(), 1u);
        EXPECT_LE(chosen.size(), std::min<size_t>(3, pairs.size()));
        EXPECT_EQ(std::set<std::string>(chosen.begin(), chosen.end()).size(), chosen.size());
        for (const std::string& c : chosen) EXPECT_THAT(pairs, ::testing::Contains(c));
      }
      ++row;
    }
    EXPECT_EQ(row, cases.size());
  }
}

TEST(LlmRewrite, QaDrawsAreTheSameOnEveryRunAndVaryByDocument) {
  const OpenAiStub& stub = echo_stub().stub;
  std::string qa = "Here are the questions and answers based on the provided text:\n";
  for (int k = 0; k < 8; ++k) {
    qa += fmt::format("- Question: q{}? Answer: a{}.\n", k, k);
  }
  const std::vector<std::string> texts(24, qa);
  RewriteRun first, second;
  rewrite(first, stub.base_url(), texts,
          {{"preset", std::string("diverse_qa")},
           {"prompt", std::string("{document}")},
           {"concurrency", int64_t(8)}});
  rewrite(second, stub.base_url(), texts,
          {{"preset", std::string("diverse_qa")},
           {"prompt", std::string("{document}")},
           {"concurrency", int64_t(1)}});
  ASSERT_TRUE(first.status.is_ok() && second.status.is_ok());
  std::set<std::string> outputs;
  std::set<size_t> sizes;
  for (size_t row = 0; row < texts.size(); ++row) {
    const std::string got = field_of(*first.batch, "diverse_qa", row);
    EXPECT_EQ(got, field_of(*second.batch, "diverse_qa", row));
    outputs.insert(got);
    ASSERT_GT(got.size(), qa.size());
    sizes.insert(count_of(std::string_view(got).substr(qa.size()), "Question:"));
  }
  // The same reply for 24 documents: each document's own draw picks its pairs and how many
  // (1 to max_num_pairs, 10, of the 8 there are).
  EXPECT_GT(outputs.size(), 12u);
  EXPECT_GT(sizes.size(), 3u);
  EXPECT_LE(*sizes.rbegin(), 8u);
  EXPECT_GE(*sizes.begin(), 1u);
}

TEST(LlmRewrite, TheReplyCanReplaceTheTextOrBecomeANewDocument) {
  const OpenAiStub& stub = echo_stub().stub;
  const std::vector<std::string> texts = {"Here is a paraphrased version: \"One.\"", "no opening",
                                          "Here is a paraphrased version: Three."};
  const std::map<std::string, StageParams::Value> base = {{"prompt", std::string("{document}")}};

  auto with = [&](std::map<std::string, StageParams::Value> extra) {
    extra.insert(base.begin(), base.end());
    return extra;
  };
  RewriteRun text;
  rewrite(text, stub.base_url(), texts, with({{"output", std::string("text")}}));
  ASSERT_TRUE(text.status.is_ok()) << text.status.message();
  EXPECT_EQ(text.batch->text(0), "One.");
  EXPECT_EQ(reason_of(*text.batch, text.reasons, 1), "llm_rewrite/missing_prefix");
  EXPECT_EQ(text.batch->text(2), "Three.");
  EXPECT_EQ(text.batch->find_annotation("rephrased"), nullptr);

  RewriteRun replaced;
  rewrite(replaced, stub.base_url(), texts, with({{"output", std::string("document")}}));
  ASSERT_TRUE(replaced.status.is_ok()) << replaced.status.message();
  // Each source, replaced by its rewrite right after it.
  ASSERT_EQ(replaced.batch->size(), 6u);
  const std::vector<std::string> states = {"llm_rewrite/rewritten", "kept",
                                           "llm_rewrite/rewritten", "llm_rewrite/missing_prefix",
                                           "llm_rewrite/rewritten", "kept"};
  EXPECT_EQ(reasons_of(*replaced.batch, replaced.reasons), states);
  EXPECT_EQ(replaced.batch->id(1), "orig-0-rephrased");
  EXPECT_EQ(replaced.batch->text(1), "One.");
  EXPECT_EQ(field_of(*replaced.batch, "parent_id", 1), "orig-0");
  EXPECT_EQ(replaced.batch->text(3), "no opening");  // in rejected/ as the model gave it
  EXPECT_EQ(replaced.batch->text(5), "Three.");
  EXPECT_EQ(replaced.batch->lineage(5).depth, 1);

  RewriteRun kept;
  rewrite(kept, stub.base_url(), texts,
          with({{"output", std::string("document")},
                {"keep_source", true},
                {"output_field", std::string("wiki")}}));
  ASSERT_TRUE(kept.status.is_ok()) << kept.status.message();
  EXPECT_EQ(reasons_of(*kept.batch, kept.reasons),
            (std::vector<std::string>{"kept", "kept", "kept", "llm_rewrite/missing_prefix", "kept",
                                      "kept"}));
  EXPECT_EQ(kept.batch->id(5), "orig-2-wiki");
  EXPECT_EQ(kept.batch->text(4), texts[2]);
}

TEST(LlmRewrite, ServerErrorsAndRateLimitsAreRetried) {
  TempDir dir;
  // A rate limit's Retry-After is caption_test's (the same client); here a plain 429.
  OpenAiStub stub({"--script", "500,429,503", "--then", "echo", "--log", dir.file("log.jsonl")});
  RewriteRun run;
  rewrite(run, stub.base_url(), {"a", "b", "c", "d"},
          {{"prompt", std::string("{document}")}, {"postprocess", false}});
  ASSERT_TRUE(run.status.is_ok()) << run.status.message();
  for (size_t row = 0; row < 4; ++row) {
    EXPECT_EQ(field_of(*run.batch, "rephrased", row), std::string(run.batch->text(row)));
  }
  EXPECT_EQ(read_log(dir.file("log.jsonl")).size(), 7u);  // 4 documents, 3 retries
  EXPECT_EQ(run.batch->stage_counts["llm_rewrite/requests"], 4u);
  EXPECT_EQ(run.batch->stage_counts["llm_rewrite/retries"], 3u);
}

TEST(LlmRewrite, AMalformedReplyIsAnErrorRecordUnderSkipAndEndsTheStageUnderFail) {
  const std::map<std::string, StageParams::Value> params = {
      {"prompt", std::string("{document}")}, {"postprocess", false}, {"concurrency", int64_t(1)}};
  // First run: malformed, 400, echo; second: echo, malformed (then echo).
  OpenAiStub stub({"--script", "malformed,400,echo,echo,malformed", "--then", "echo"});
  {
    RewriteRun run;
    rewrite(run, stub.base_url(), {"a", "b", "c"}, params, true);
    ASSERT_TRUE(run.status.is_ok()) << run.status.message();
    const AnnotationColumn* messages = run.batch->find_annotation(kRowErrorField);
    ASSERT_NE(messages, nullptr);
    EXPECT_EQ(reason_of(*run.batch, run.reasons, 0), "llm_rewrite/bad_reply");
    EXPECT_TRUE(run.reasons.at(run.batch->drop_reason(0)).error());
    EXPECT_THAT(messages->string_at(0), HasSubstr("document orig-0: malformed reply"));
    // A 400 is final at once.
    EXPECT_EQ(reason_of(*run.batch, run.reasons, 1), "llm_rewrite/endpoint_failed");
    EXPECT_THAT(messages->string_at(1), HasSubstr("HTTP 400"));
    EXPECT_THAT(messages->string_at(1), HasSubstr("after 1 attempt"));
    EXPECT_EQ(field_of(*run.batch, "rephrased", 2), "c");
  }
  {
    RewriteRun run;
    rewrite(run, stub.base_url(), {"a", "b", "c"}, params, false);
    ASSERT_FALSE(run.status.is_ok());
    EXPECT_THAT(run.status.message(), HasSubstr("document orig-1"));
    EXPECT_THAT(run.status.message(), HasSubstr("on_error: fail"));
  }
}

TEST(LlmRewrite, BadParametersAreRefusedNamingTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "llm_rewrite", 0, 0);
  unsetenv("WINNOW_REWRITE_TEST_KEY");
  for (const auto& [key, value] : std::vector<std::pair<std::string, StageParams::Value>>{
           {"preset", std::string("summary")},
           {"output", std::string("column")},
           {"prompt", std::string("no placeholder")},
           {"prompt", std::string("{title}: {document}")},
           {"prompt", std::string("{document} }")},
           {"prompt_file", std::string("/nonexistent/prompt.txt")},
           {"max_num_pairs", int64_t(0)},
           {"top_p", 0.0},
           {"endpoint", std::string("127.0.0.1:8000")},
           {"api_key_env", std::string("WINNOW_REWRITE_TEST_KEY")}}) {
    SCOPED_TRACE(key);
    auto stage = build_stage(llm_rewrite_spec(), {{key, value}}, context);
    ASSERT_FALSE(stage.is_ok());
    EXPECT_THAT(stage.status().message(), HasSubstr(key));
  }
}

}  // namespace
}  // namespace winnow::testing
