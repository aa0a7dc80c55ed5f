// DedupStep driven as the pipeline drives it (begin, observe, another_pass, finish), with and
// without exact-Jaccard verification of the LSH candidates.
#include "dedup/dedup_step.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_set>

#include "dedup/fuzzy_keyer.h"
#include "dedup/planted_texts.h"
#include "stages/filter_test_support.h"

namespace winnow {
namespace {

double jaccard(const Shingler& s, const std::string& a, const std::string& b) {
  std::vector<uint32_t> x, y;
  s.hashes(a, x);
  s.hashes(b, y);
  std::unordered_set<uint32_t> sx(x.begin(), x.end()), sy(y.begin(), y.end());
  size_t both = 0;
  for (uint32_t h : sx) both += sy.count(h);
  return static_cast<double>(both) / (sx.size() + sy.size() - both);
}

struct IdentifyRun {
  DuplicatesTable table;
  std::string summary;
};

IdentifyRun identify(const std::vector<std::string>& texts, double threshold, int passes_expected) {
  testing::TempDir dir;
  MinHashParams params;
  params.bands = 50;  // threshold about 0.14: nearly every pair above 0.4 is a candidate
  params.rows = 2;
  DedupStepOptions options;
  options.kind = "fuzzy";
  options.jaccard_threshold = threshold;
  DedupStep step(std::make_unique<FuzzyKeyer>(params), options);
  GlobalStepContext context{dir.path(), dir.file("spill"), 2};
  EXPECT_TRUE(step.begin_identify(context).is_ok());
  auto batch = testing::make_text_batch(texts);
  int passes = 0;
  do {
    ++passes;
    EXPECT_TRUE(step.observe(*batch).is_ok());
  } while (step.another_pass());
  EXPECT_EQ(passes, passes_expected);
  Status s = step.finish_identify();
  EXPECT_TRUE(s.is_ok()) << s.message();
  auto table = DuplicatesTable::read(dir.file("duplicates.jsonl"));
  EXPECT_TRUE(table.is_ok());
  return {std::move(table).value(), step.summary_json()};
}

TEST(DedupStep, JaccardVerificationKeepsOnlyLinksAboveTheThreshold) {
  std::vector<std::string> bases = testing::machine_texts(2000);
  std::mt19937_64 rng(21);
  std::vector<std::string> texts;
  for (int i = 0; i < 30; ++i) {
    std::string base = testing::window(bases[(i * 7) % bases.size()], 1500, rng);
    texts.push_back(base);                               // 3i:     the original
    texts.push_back(testing::edit_text(base, 2, rng));   // 3i + 1: J about 0.95
    texts.push_back(testing::edit_text(base, 18, rng));  // 3i + 2: J about 0.5 - 0.7
  }
  Shingler shingler({ShingleKind::kChars, 24});
  IdentifyRun loose = identify(texts, 0, 1);
  IdentifyRun strict = identify(texts, 0.8, 2);
  EXPECT_NE(strict.summary.find("\"jaccard_threshold\": 0.8"), std::string::npos);
  auto component_of = [](const DuplicatesTable& t, uint64_t doc) -> int64_t {
    for (const auto& e : t.entries) {
      if (e.doc == doc) return static_cast<int64_t>(e.component);
    }
    return -1;
  };
  int medium_loose = 0, medium_strict = 0;
  for (uint64_t i = 0; i < 30; ++i) {
    uint64_t a = 3 * i, b = a + 1, c = a + 2;
    ASSERT_GE(jaccard(shingler, texts[a], texts[b]), 0.8);
    // The close pair is found either way.
    EXPECT_NE(component_of(strict.table, a), -1);
    EXPECT_EQ(component_of(strict.table, a), component_of(strict.table, b));
    medium_loose += component_of(loose.table, c) != -1;
    double jc =
        std::max(jaccard(shingler, texts[a], texts[c]), jaccard(shingler, texts[b], texts[c]));
    if (component_of(strict.table, c) != -1) {
      ++medium_strict;
      // Linked only through a verified link: some member of its group is that similar.
      EXPECT_GE(jc, 0.8) << "doc " << c;
    }
  }
  EXPECT_GT(medium_loose, 20);  // 50 x 2 bands catch most of the J ~0.6 pairs
  EXPECT_LT(medium_strict, medium_loose);
}

}  // namespace
}  // namespace winnow
