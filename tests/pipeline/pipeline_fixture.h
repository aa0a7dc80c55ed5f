#pragma once
// Shared by the executor tests: a registry, corpora written to a temp folder, and helpers to
// read a run's output folder back.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "stages/builtin_stages.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_config.h"
#include "test_support.h"

namespace winnow::testing {

inline StageRegistry builtin_registry() {
  StageRegistry registry;
  register_builtin_stages(registry);
  return registry;
}

// A document line with escapes, non-ASCII text and extra fields, deterministic in (shard, i).
inline std::string make_doc_line(int shard, int i, std::mt19937& rng) {
  static const char* words[] = {"the",        "data",
                                "curation",   "café",
                                "naïve",      "\\\"quoted\\\"",
                                "tab\\there", "line\\nbreak",
                                "東京",       "emoji\\ud83d\\ude00",
                                "winnow",     "of",
                                "and",        "to"};
  std::string text;
  int n = 1 + static_cast<int>(rng() % 120);
  for (int w = 0; w < n; ++w) {
    if (w) text += ' ';
    text += words[rng() % (sizeof(words) / sizeof(words[0]))];
  }
  return "{\"id\": \"s" + std::to_string(shard) + "-" + std::to_string(i) + "\",  \"text\":\"" +
         text + "\", \"meta\": {\"n\": " + std::to_string(i) + ", \"tags\": [\"a\", \"b\"]}}";
}

// Writes `shards` input files (compressions rotate plain / gz / zst) with `docs` lines each.
inline std::vector<std::string> write_corpus(const std::string& dir, int shards, int docs,
                                             unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::vector<std::string> paths;
  for (int s = 0; s < shards; ++s) {
    std::string body;
    for (int i = 0; i < docs; ++i) body += make_doc_line(s, i, rng) + "\n";
    Compression c = static_cast<Compression>(s % 3);
    std::string path = dir + "/part-" + std::to_string(s) + std::string(format_extension(c));
    write_file(path, compress(body, c));
    paths.push_back(path);
  }
  return paths;
}

// Every regular file under `dir` (relative path -> uncompressed bytes), stats.json,
// metrics.jsonl and report.html excluded (they hold timings).
std::map<std::string, std::string> read_output_tree(const std::string& dir);

// The same without the run bookkeeping that legitimately differs between pipelines (markers
// carry the pipeline's fingerprint).
inline std::map<std::string, std::string> result_tree(const std::string& dir) {
  auto tree = read_output_tree(dir);
  std::erase_if(tree, [](const auto& entry) {
    return entry.first.starts_with("_done/") || entry.first.ends_with("_complete.json");
  });
  return tree;
}

// A suite of end-to-end tests over this machine's example corpus (scripts/make_example_corpus),
// made once per suite.
class ExampleCorpusTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    std::string out;
    ASSERT_EQ(run_command(std::string(WINNOW_SOURCE_DIR) + "/scripts/make_example_corpus " +
                              dir_->file("corpus"),
                          &out),
              0)
        << out;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // `winnow run PIPELINE` over the corpus into the suite's folder OUT_NAME (overwritten);
  // returns what it printed.
  static std::string run_winnow(const std::string& pipeline, const std::string& out_name,
                                const std::string& extra, int expect_rc = 0) {
    std::string out;
    int rc = run_command(std::string(WINNOW_BINARY) + " run " + pipeline + " -i " +
                             dir_->file("corpus") + " -o " + dir_->file(out_name) +
                             " --overwrite --no-progress " + extra,
                         &out);
    EXPECT_EQ(rc, expect_rc) << out;
    return out;
  }

  static inline TempDir* dir_ = nullptr;
};

inline PipelineConfig load_config(const std::string& yaml) {
  static StageRegistry registry = builtin_registry();
  auto config = PipelineConfig::load_string(yaml, "test.yaml", registry);
  if (!config.is_ok()) throw std::runtime_error(config.status().message());
  return std::move(config).value();
}

}  // namespace winnow::testing
