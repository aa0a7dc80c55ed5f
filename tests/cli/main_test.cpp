// End-to-end tests of the `winnow` binary: every bad-input case under both error policies,
// exit codes, a killed-and-resumed run, and the example pipelines in examples/ and bench/.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// docs/reference.md is what `winnow reference` prints: the keys the loader declares and every
// stage's parameters. After changing either, regenerate it:
//   build/winnow reference > docs/reference.md
TEST(Cli, ReferenceDocumentIsGeneratedFromTheDeclarations) {
  std::string out;
  ASSERT_EQ(winnow("reference 2>/dev/null", &out), 0);
  EXPECT_EQ(out, read_file(kSource + "/docs/reference.md"))
      << "docs/reference.md is out of date: run `build/winnow reference > docs/reference.md`";
  for (const char* key : {"`batch_bytes`", "`follow_links`", "`verify_digests`", "`materialize`",
                          "### `fuzzy_dedup`", "### `chunk`"}) {
    EXPECT_THAT(out, HasSubstr(key));
  }
}

TEST(Cli, VersionStagesAndHelp) {
  std::string out;
  EXPECT_EQ(winnow("--version", &out), 0);
  EXPECT_THAT(out, HasSubstr("winnow 0."));
  EXPECT_EQ(winnow("stages", &out), 0);
  for (const char* stage : {"text_length", "select", "sample", "add_id"}) {
    EXPECT_THAT(out, HasSubstr(stage));
  }
  EXPECT_EQ(winnow("run --help", &out), 0);
  EXPECT_THAT(out, HasSubstr("--overwrite"));
  EXPECT_EQ(winnow("frobnicate", &out), 2);
}

TEST(Cli, InvalidPipelineExitsTwoNamingTheLine) {
  TempDir dir;
  std::string path = pipeline_file(dir, "stages:\n  - stage: text_length\n    min_char: 3\n");
  std::string out;
  EXPECT_EQ(winnow("run " + path + " -i " + dir.path() + " -o " + dir.file("out"), &out), 2);
  EXPECT_THAT(out, HasSubstr(path + ":3:"));
  EXPECT_THAT(out, HasSubstr("unknown parameter 'min_char'"));
}

// The command line and the pipeline file refuse the same values with the same words, exit 2,
// before anything is read (--threads 100000 --no-autoscale used to abort with signal 6).
TEST(Cli, RunValuesAreCheckedTheSameOnTheCommandLineAndInTheFile) {
  TempDir dir;
  write_file(dir.file("in.jsonl"), "{\"text\": \"hello\"}\n");
  struct Case {
    std::string flag, yaml, message;
  };
  for (const Case& c : std::vector<Case>{
           {"--threads 100000 --no-autoscale", "threads: 100000",
            "threads must be 0 (as many as the machine has cores) to 1024; got 100000"},
           {"--threads -1", "threads: -1",
            "threads must be 0 (as many as the machine has cores) to 1024; got -1"},
           {"--batch-size 0", "batch_size: 0", "batch_size must be at least 1; got 0"}}) {
    SCOPED_TRACE(c.flag);
    std::string out;
    std::string plain = pipeline_file(dir, "stages: []\n");
    EXPECT_EQ(winnow("run " + plain + " -i " + dir.file("in.jsonl") + " -o " + dir.file("out") +
                         " " + c.flag,
                     &out),
              2);
    EXPECT_THAT(out, HasSubstr(c.message));
    std::string with_value = pipeline_file(dir, c.yaml + "\nstages: []\n");
    EXPECT_EQ(winnow("run " + with_value + " -i " + dir.file("in.jsonl") + " -o " +
                         dir.file("out"),
                     &out),
              2);
    EXPECT_THAT(out, HasSubstr(c.message));
    EXPECT_FALSE(fs::exists(dir.file("out")));
  }
}

// One bad input per case: the file to write, the error kind, and the line it must name.
struct BadInput {
  std::string name;
  std::string file_name;
  std::string bytes;
  std::string kind;
  int line;  // 0 when the message names no line
};

std::vector<BadInput> bad_inputs() {
  std::string good = "{\"text\": \"good document\"}\n";
  std::string many_good;
  for (int i = 0; i < 3000; ++i)
    many_good += "{\"text\": \"document number " + std::to_string(i) + "\"}\n";
  std::string zst = compress(many_good, Compression::kZstd);
  std::string gz = compress(many_good, Compression::kGzip);
  std::string corrupt = zst;
  for (size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 16; ++i) corrupt[i] ^= 0x5a;
  return {
      {"malformed", "a.jsonl", good + "{\"text\": \"x\",}\n" + good, "malformed_json", 2},
      {"not_object", "a.jsonl", good + good + "\"just a string\"\n", "not_an_object", 3},
      {"missing_text", "a.jsonl", "{\"body\": \"x\"}\n" + good, "missing_text", 1},
      {"text_not_string", "a.jsonl", good + "{\"text\": [1]}\n", "text_not_string", 2},
      {"invalid_utf8", "a.jsonl", good + "{\"text\": \"caf\xe9\"}\n", "invalid_utf8", 2},
      {"truncated_gz", "a.jsonl.gz", gz.substr(0, gz.size() * 2 / 3), "truncated_compressed", 0},
      {"truncated_zst", "a.jsonl.zst", zst.substr(0, zst.size() * 2 / 3), "truncated_compressed",
       0},
      {"corrupt_zst", "a.jsonl.zst", corrupt, "corrupt_compressed", 0},
      {"empty", "a.jsonl", "", "empty_file", 0},
  };
}

TEST(Cli, EveryBadInputFailsUnderFailAndIsLoggedUnderSkip) {
  for (const BadInput& bad : bad_inputs()) {
    SCOPED_TRACE(bad.name);
    TempDir dir;
    std::string input = dir.file(bad.file_name);
    write_file(input, bad.bytes);
    std::string pipeline = pipeline_file(dir, "output: {format: jsonl}\n");
    std::string out;
    int rc = winnow(
        "run " + pipeline + " -q -i " + input + " -o " + dir.file("fail") + " --on-error fail",
        &out);
    EXPECT_EQ(rc, 1) << out;
    EXPECT_THAT(out, HasSubstr(input));
    if (bad.line > 0) {
      EXPECT_THAT(out, HasSubstr(input + ":" + std::to_string(bad.line) + ":"));
    }
    EXPECT_FALSE(fs::exists(dir.file("fail/a.jsonl"))) << "a failed shard is under its final name";

    rc = winnow(
        "run " + pipeline + " -q -i " + input + " -o " + dir.file("skip") + " --on-error skip",
        &out);
    EXPECT_EQ(rc, 0) << out;
    std::string stats = dir.file("skip/stats.json");
    uint64_t documents = stats_total(stats, "documents");
    EXPECT_EQ(documents, stats_total(stats, "kept") + stats_total(stats, "dropped") +
                             stats_total(stats, "errors"));
    EXPECT_EQ(stats_total(stats, "errors"), 1u);
    std::string errors = read_file(dir.file("skip/errors/a.jsonl"));
    EXPECT_THAT(errors, HasSubstr("\"error\":\"" + bad.kind + "\""));
    if (bad.line > 0) {
      EXPECT_THAT(errors, HasSubstr("\"line\":" + std::to_string(bad.line) + ","));
    }
    // The good records around the bad one are all kept.
    EXPECT_EQ(split_lines(read_file(dir.file("skip/a.jsonl"))).size(), stats_total(stats, "kept"));
  }
}

TEST(Cli, UnreadableFileIsAnErrorRecord) {
  TempDir dir;
  fs::create_directories(dir.file("in/sub.jsonl"));  // a folder named like a shard
  write_file(dir.file("in/ok.jsonl"), "{\"text\": \"fine\"}\n");
  std::string pipeline = pipeline_file(dir, "{}\n");
  std::string out;
  std::string inputs = " -i " + dir.file("in/sub.jsonl") + " -i " + dir.file("in/ok.jsonl");
  EXPECT_EQ(winnow("run " + pipeline + " -q" + inputs + " -o " + dir.file("f"), &out), 1);
  EXPECT_THAT(out, HasSubstr("sub.jsonl"));
  EXPECT_EQ(
      winnow("run " + pipeline + " -q --on-error skip" + inputs + " -o " + dir.file("s"), &out), 0)
      << out;
  EXPECT_EQ(stats_total(dir.file("s/stats.json"), "kept"), 1u);
  EXPECT_THAT(read_file(dir.file("s/errors/sub.jsonl")), HasSubstr("unreadable_file"));
}

TEST(Cli, HundredMegabyteLineIsSkippedWithoutHoldingIt) {
  TempDir dir;
  std::string input = dir.file("big.jsonl");
  {
    std::string line = "{\"text\": \"" + std::string(100 << 20, 'a') + "\"}\n";
    write_file(input, "{\"text\": \"before\"}\n" + line + "{\"text\": \"after\"}\n");
  }
  std::string pipeline = pipeline_file(dir, "output: {format: jsonl}\n");
  std::string out;
  EXPECT_EQ(winnow("run " + pipeline + " -q -i " + input + " -o " + dir.file("f"), &out), 1);
  EXPECT_THAT(out, HasSubstr(input + ":2: line is longer than max_line_bytes"));
  EXPECT_EQ(
      winnow("run " + pipeline + " -q --on-error skip -i " + input + " -o " + dir.file("s"), &out),
      0);
  // Records without an id get one from their key (shard 0, rows 0 and 2).
  EXPECT_EQ(read_file(dir.file("s/big.jsonl")),
            "{\"text\": \"before\",\"id\":\"00000-0000000000\"}\n"
            "{\"text\": \"after\",\"id\":\"00000-0000000002\"}\n");
  EXPECT_THAT(read_file(dir.file("s/errors/big.jsonl")), HasSubstr("line_too_long"));
}

TEST(Cli, KilledRunResumesToTheSameOutput) {
  TempDir dir;
  // Enough data that a run takes a while on one thread.
  fs::create_directories(dir.file("in"));
  write_corpus(dir.file("in"), 24, 6000, 7);
  std::string pipeline = pipeline_file(
      dir, "output: {format: jsonl.zst}\nstages:\n  - stage: text_length\n    min_chars: 80\n");
  std::string args = "run " + pipeline + " -q -t 1 -i " + dir.file("in") + " -o ";
  std::string out;
  ASSERT_EQ(winnow(args + dir.file("clean"), &out), 0) << out;

  // Kill -9 part-way, at a few different moments, then resume to completion.
  for (int delay_ms : {150, 400}) {
    std::string target = dir.file("killed-" + std::to_string(delay_ms));
    signal_midway(args, target, delay_ms, SIGKILL);
    ASSERT_EQ(winnow(args + target, &out), 0) << out;
    EXPECT_EQ(read_output_tree(target), read_output_tree(dir.file("clean")))
        << "after a kill at " << delay_ms << " ms";
    EXPECT_EQ(stats_total(target + "/stats.json", "documents"), 24u * 6000);
  }

  // SIGTERM (and Ctrl-C's SIGINT) stop the run cleanly: exit 130, no temporary file left.
  std::string target = dir.file("terminated");
  int status = signal_midway(args, target, 300, SIGTERM);
  ASSERT_TRUE(WIFEXITED(status));
  int code = WEXITSTATUS(status);
  EXPECT_TRUE(code == 130 || code == 0) << "exit code " << code;  // 0: it had finished already
  if (code == 130) {  // a stop, not a failure
    simdjson::dom::parser parser;
    EXPECT_EQ(std::string_view(parser.load(target + "/stats.json")["status"].get_string().value()),
              "stopped");
  }
  for (const auto& entry : fs::recursive_directory_iterator(target)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
        << "left behind: " << entry.path();
  }
  ASSERT_EQ(winnow(args + target, &out), 0) << out;
  EXPECT_EQ(read_output_tree(target), read_output_tree(dir.file("clean")));
}

// A stop ends the run within seconds even while a stage is stuck inside one document: gumbo on
// a page of 300,000 nested inline elements (max_depth raised) takes minutes. The shard finished
// before stays complete, nothing half-written remains, the exit code is 130.
TEST(Cli, AStopEndsTheRunEvenWithAStageStuckInADocument) {
  TempDir dir;
  fs::create_directories(dir.file("in"));
  write_file(dir.file("in/a-small.jsonl"),
             R"({"id": "ok", "text": "<html><body><p>A short page.</p></body></html>"})" "\n");
  std::string page = "<html><body>";
  for (int i = 0; i < 300000; ++i) page += "<b><i><u><s>";
  write_file(dir.file("in/b-deep.jsonl"), R"({"id": "deep", "text": ")" + page + "\"}\n");
  std::string pipeline = pipeline_file(dir,
                                       "stages:\n"
                                       "  - {stage: html_extract, parser: gumbo, max_depth: "
                                       "10000000, max_input_bytes: 67108864, "
                                       "max_document_seconds: 0}\n");
  std::string args = "run " + pipeline + " -t 1 -i " + dir.file("in") + " -o ";
  std::string target = dir.file("out");
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + kWinnow + " " + args + target + " >/dev/null 2>&1").c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Once the small shard is done the deep page is in gumbo.
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(target + "/_done/a-small.json") && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, SIGTERM);
  // Patience, not a speed test: without the watchdog this waits for gumbo, minutes.
  int status = 0;
  bool exited = false;
  give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < give_up) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(exited) << "the run did not stop";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_TRUE(fs::exists(target + "/a-small.jsonl.zst"));
  EXPECT_FALSE(fs::exists(target + "/b-deep.jsonl.zst"));
  for (const auto& entry : fs::recursive_directory_iterator(target)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
        << "left behind: " << entry.path();
  }
}

// With a time limit per page (html_extract's max_document_seconds, parser gumbo), the page gumbo
// would take minutes over is dropped as too_slow, kept whole in rejected/, and the run goes on
// and ends without waiting for gumbo.
TEST(Cli, APageTooSlowToExtractIsDroppedAndTheRunGoesOn) {
  TempDir dir;
  std::string page = "<html><body>";
  for (int i = 0; i < 50000; ++i) page += "<b><i><u><s>";
  write_file(dir.file("in.jsonl"),
             std::string(R"({"id": "ok", "text": "<html><body><p>A short page.</p></body></html>"})"
                         "\n") +
                 R"({"id": "deep", "text": ")" + page + "\"}\n" +
                 R"({"id": "ok2", "text": "<p>Another short page.</p>"})" + "\n");
  std::string pipeline = pipeline_file(dir,
                                       "output: {format: jsonl}\n"
                                       "stages:\n"
                                       "  - {stage: html_extract, parser: gumbo, algorithm: plain,"
                                       " max_depth: 10000000, max_document_seconds: 0.2}\n");
  std::string out;
  ASSERT_EQ(winnow("run " + pipeline + " -q -i " + dir.file("in.jsonl") + " -o " +
                       dir.file("out"),
                   &out),
            0)
      << out;
  EXPECT_EQ(read_file(dir.file("out/in.jsonl")),
            "{\"id\": \"ok\",\"text\":\"A short page.\",\"charset\":\"utf-8\"}\n"
            "{\"id\": \"ok2\",\"text\":\"Another short page.\",\"charset\":\"utf-8\"}\n");
  std::string rejected = read_file(dir.file("out/rejected/in.jsonl"));
  EXPECT_THAT(rejected, HasSubstr("\"id\": \"deep\""));
  EXPECT_THAT(rejected, HasSubstr("\"reason\":\"too_slow\""));
  EXPECT_THAT(rejected, HasSubstr(page.substr(0, 1000)));  // the page itself, to look at
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir.file("out/stats.json"));
  EXPECT_EQ(uint64_t(stats["totals"]["kept"]), 2u);
  EXPECT_EQ(uint64_t(stats["totals"]["dropped_by_reason"]["html_extract/too_slow"]), 1u);
}

TEST(Cli, ExamplePipelinesRun) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run_command(kSource + "/scripts/make_example_corpus " + dir.file("corpus"), &out), 0)
      << out;
  int rc = winnow("run " + kSource + "/examples/example.yaml -i " + dir.file("corpus") + " -o " +
                      dir.file("out"),
                  &out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_THAT(out, HasSubstr("reconciled"));
  std::string stats = dir.file("out/stats.json");
  EXPECT_GT(stats_total(stats, "kept"), 100u);
  EXPECT_GT(stats_total(stats, "dropped"), 0u);

  rc = winnow("run " + kSource + "/bench/passthrough.yaml -i " + dir.file("corpus") + " -o " +
                  dir.file("pass"),
              &out);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_EQ(stats_total(dir.file("pass/stats.json"), "kept"), stats_total(stats, "documents"));
}

}  // namespace
}  // namespace winnow::testing
