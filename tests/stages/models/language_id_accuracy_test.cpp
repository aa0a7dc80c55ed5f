// Accuracy of both language-ID backends on real multilingual text: Debian's debian-reference
// translations, fortunes-de/ru/it/es/pl/cs and translated manual pages, gathered at test time
// by scripts/make_langid_corpus into documents of at least 200 characters.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>

#include "stages/filter_test_support.h"
#include "stages/builtin_stages.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

struct LabelledDoc {
  std::string lang, source, text;
};

std::vector<LabelledDoc> load_corpus(const TempDir& dir) {
  std::string path = dir.file("langid.jsonl");
  std::string out;
  int rc =
      run_command(std::string(WINNOW_SOURCE_DIR) + "/scripts/make_langid_corpus " + path, &out);
  if (rc != 0) throw std::runtime_error("make_langid_corpus failed: " + out);
  std::vector<LabelledDoc> docs;
  simdjson::dom::parser parser;
  for (const auto& line : split_lines(read_file(path))) {
    if (line.empty()) continue;
    simdjson::dom::element record = parser.parse(line);
    docs.push_back({std::string(std::string_view(record["lang"])),
                    std::string(std::string_view(record["source"])),
                    std::string(std::string_view(record["text"]))});
  }
  return docs;
}

// Runs language_id with `params` over the corpus; returns the accuracy, printing a breakdown.
double accuracy(const std::vector<LabelledDoc>& docs,
                const std::map<std::string, StageParams::Value>& params, const char* name) {
  std::vector<TestDoc> batch_docs;
  for (const auto& d : docs) batch_docs.push_back({d.text});
  auto batch = make_batch(batch_docs);
  ReasonTable reasons;
  StageContext context(reasons, "language_id", 0, 42);
  auto stage = build_stage(language_id_spec(), params, context);
  if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(stage.value()->process(*batch).is_ok());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const AnnotationColumn* language = batch->find_annotation("language");
  std::map<std::string, std::pair<int, int>> by_group;  // lang/source -> (right, total)
  std::map<std::string, int> confusions;
  int right = 0;
  for (size_t i = 0; i < docs.size(); ++i) {
    const std::string& guess = language->string_at(i);
    bool ok = guess == docs[i].lang;
    right += ok;
    auto& g = by_group[docs[i].lang + "/" + docs[i].source];
    g.first += ok;
    g.second += 1;
    if (!ok) ++confusions[docs[i].lang + "->" + guess];
  }
  double acc = static_cast<double>(right) / docs.size();
  fmt::print("{}: {}/{} right = {:.2f}% ({:.0f} documents/s on one thread)\n", name, right,
             docs.size(), 100.0 * acc, docs.size() / seconds);
  for (const auto& [group, counts] : by_group) {
    fmt::print("  {:<26} {:3}/{:3}\n", group, counts.first, counts.second);
  }
  std::string confused;
  for (const auto& [pair, n] : confusions) confused += fmt::format(" {}:{}", pair, n);
  fmt::print("  errors:{}\n", confused);
  return acc;
}

// One test: building the corpus takes a few seconds, and ctest runs each test in its own process.
TEST(LanguageIdAccuracy, BothBackendsAtLeast95PercentOnRealText) {
  TempDir dir;
  std::vector<LabelledDoc> docs = load_corpus(dir);
  std::map<std::string, int> per_language;
  for (const auto& d : docs) {
    ++per_language[d.lang];
    EXPECT_GE(d.text.size(), 200u);
  }
  // debian-reference: en de fr es it pt ja zh; fortunes: ru pl cs (and de it es); man pages.
  EXPECT_GE(per_language.size(), 11u);
  for (const auto& [lang, n] : per_language) EXPECT_GE(n, 100) << lang;

  EXPECT_GE(accuracy(docs, {{"backend", std::string("cld2")}, {"min_score", 0.0}}, "cld2"), 0.95);
  std::string model = std::string(WINNOW_SOURCE_DIR) + "/models/lid.176.ftz";
  EXPECT_GE(
      accuracy(docs, {{"backend", std::string("fasttext")}, {"model", model}, {"min_score", 0.0}},
               "fasttext lid.176.ftz"),
      0.95);
}

}  // namespace
}  // namespace winnow::testing
