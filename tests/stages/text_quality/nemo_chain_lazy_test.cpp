// NeMo's English chain (examples/nemo_english.yaml) computes each document's features only when
// a filter asks for them, once, shared by the filters after it (DocSegments). These tests check
// that the order in which features are computed never changes a value, that `annotate: true`
// (every stage records its score) decides exactly as the plain chain does, and that a document
// the first filters drop is never split into words, lines or n-grams.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/pipeline_config.h"
#include "stages/heuristic_filter_test_support.h"
#include "text/doc_segments.h"
#include "text/python_text.h"

namespace winnow {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The example chain, with `annotate: true` added to every stage when asked.
PipelineConfig nemo_chain(bool annotate) {
  std::string yaml = read_file(std::string(WINNOW_SOURCE_DIR) + "/examples/nemo_english.yaml");
  EXPECT_FALSE(yaml.empty());
  if (annotate) {
    std::string out;
    std::istringstream lines(yaml);
    for (std::string line; std::getline(lines, line);) {
      out += line + "\n";
      if (line.starts_with("  - stage: ")) out += "    annotate: true\n";
    }
    yaml = out;
  }
  auto config = PipelineConfig::load_string(yaml, "nemo_english.yaml", testing::all_stages());
  EXPECT_TRUE(config.is_ok()) << config.status().message();
  EXPECT_EQ(config.value().stages.size(), 28u);
  return std::move(config).value();
}

struct ChainRun {
  std::vector<std::string> reasons;             // per document: "stage/reason" or "kept"
  std::vector<std::vector<double>> scores;      // per stage, per document (NaN: not annotated)
  std::vector<std::vector<bool>> annotated;     // per stage, per document: a score recorded
  std::unique_ptr<DocBatch> batch;              // after the chain, with its segment cache
};

// Runs the chain over `texts` as the executor does: each stage over the batch in order.
// `before` runs on the batch first (to compute features ahead of the chain).
ChainRun run_chain(const PipelineConfig& config, const std::vector<std::string>& texts,
                   const std::function<void(DocBatch&)>& before = {}) {
  ReasonTable reasons;
  std::vector<std::unique_ptr<Stage>> stages;
  for (size_t i = 0; i < config.stages.size(); ++i) {
    const StageConfig& s = config.stages[i];
    StageContext context(reasons, s.name, static_cast<int>(i), config.seed);
    auto built = s.spec->make(s.params, context);
    EXPECT_TRUE(built.is_ok()) << s.name;
    stages.push_back(std::move(built).value());
  }
  ChainRun run;
  run.batch = testing::make_text_batch(texts);
  if (before) before(*run.batch);
  for (auto& stage : stages) EXPECT_TRUE(stage->process(*run.batch).is_ok());
  run.reasons = testing::reasons_of(*run.batch, reasons);
  for (const StageConfig& s : config.stages) {
    std::vector<double> column(texts.size(), std::nan(""));
    std::vector<bool> has(texts.size(), false);
    if (const AnnotationColumn* c = run.batch->find_annotation(s.name)) {
      for (size_t i = 0; i < texts.size(); ++i) {
        has[i] = c->has(i);
        if (has[i]) column[i] = c->float_at(i);
      }
    }
    run.scores.push_back(std::move(column));
    run.annotated.push_back(std::move(has));
  }
  return run;
}

// A varied corpus (seeded): prose, code, bullet lists, tables of numbers, URLs, hashtags,
// ellipses, repeated lines and paragraphs, non-ASCII text and non-ASCII spaces, blank and
// one-word documents, so that documents stop at many different filters.
std::vector<std::string> varied_corpus(size_t n) {
  static const std::vector<std::string> words = {
      "the",  "of",     "and",     "to",      "with",    "that",   "have",  "be",
      "data", "filter", "corpus",  "winnow",  "quality", "text",   "line",  "page",
      "a",    "is",     "example", "numbers", "été",     "naïve",  "日本語", "curation"};
  static const std::vector<std::string> blocks = {
      "    for (int i = 0; i < n; ++i) { x[i] = y[i] * 2; }\n",
      "- item one\n- item two\n- item three\n",
      "• first point\n• second point\n",
      "1 2 3 4 5 6 7 8 9 10 11 12 13\n",
      "See https://example.org/a/b?c=d and http://x.y/z%20w for more.\n",
      "#tag ##deep #### #x\n",
      "It went on... and on … [...] (...) -» read more\n",
      "| a | b | c |\n|---|---|---|\n",
      "copyright (c) 2001-2024 Someone <someone@example.org>\n",
      "\xc2\xa0\xe2\x80\x80 spaced \xe3\x80\x80 out\n",
      "To be or not to be, that is the question.\n",
      "\n\n",
  };
  std::mt19937 rng(33);
  auto pick = [&](size_t size) { return std::uniform_int_distribution<size_t>(0, size - 1)(rng); };
  std::vector<std::string> out;
  for (size_t d = 0; d < n; ++d) {
    std::string text;
    switch (d % 10) {
      case 0:
        text = (d % 20 == 0) ? "" : "   \n\t ";
        break;
      case 1:
        text = words[pick(words.size())];
        break;
      default: {
        const size_t parts = 1 + pick(12);
        std::string repeated;
        for (size_t p = 0; p < parts; ++p) {
          const size_t kind = pick(4);
          if (kind == 0) {
            text += blocks[pick(blocks.size())];
          } else if (kind == 1 && !repeated.empty()) {
            text += repeated;
          } else {
            std::string sentence;
            const size_t length = 5 + pick(40);
            for (size_t w = 0; w < length; ++w) {
              sentence += (w ? " " : "") + words[pick(words.size())];
            }
            sentence += pick(3) == 0 ? "\n\n" : ".\n";
            repeated = sentence;
            text += sentence;
          }
        }
      }
    }
    out.push_back(std::move(text));
  }
  return out;
}

TEST(NemoChainLazy, AnnotatedChainDecidesAsThePlainChain) {
  const auto texts = varied_corpus(600);
  ChainRun plain = run_chain(nemo_chain(false), texts);
  ChainRun annotated = run_chain(nemo_chain(true), texts);
  EXPECT_EQ(plain.reasons, annotated.reasons);
  // The corpus reaches many filters: the check is not vacuous.
  std::set<std::string> seen(plain.reasons.begin(), plain.reasons.end());
  EXPECT_GE(seen.size(), 8u) << ::testing::PrintToString(seen);
  EXPECT_TRUE(seen.count("kept"));
  EXPECT_TRUE(seen.count("non_alpha_numeric/alpha_numeric"));
  // With annotate, every stage a document reached recorded its score: exactly the stages up to
  // the one that dropped it (or all 28).
  const PipelineConfig config = nemo_chain(true);
  for (size_t i = 0; i < texts.size(); ++i) {
    bool reached = true;
    for (size_t s = 0; s < config.stages.size(); ++s) {
      EXPECT_EQ(annotated.annotated[s][i], reached)
          << "document " << i << " stage " << config.stages[s].name;
      if (annotated.reasons[i].starts_with(config.stages[s].name + "/")) reached = false;
    }
  }
}

TEST(NemoChainLazy, FeaturesComputedAheadGiveTheSameScores) {
  const auto texts = varied_corpus(600);
  const PipelineConfig config = nemo_chain(true);
  ChainRun lazy = run_chain(config, texts);
  // Every feature computed before the first filter runs, in another order than the chain's.
  ChainRun eager = run_chain(config, texts, [](DocBatch& batch) {
    for (size_t i = 0; i < batch.size(); ++i) {
      DocSegments& d = doc_segments(batch, i);
      d.word_repeat_levels(10);
      d.top_word_ngram(2);
      d.paragraphs();
      d.lines();
      d.word_ids();
      d.words();
      d.chars();
    }
  });
  EXPECT_EQ(lazy.reasons, eager.reasons);
  for (size_t s = 0; s < config.stages.size(); ++s) {
    for (size_t i = 0; i < texts.size(); ++i) {
      const double a = lazy.scores[s][i], b = eager.scores[s][i];
      EXPECT_TRUE((std::isnan(a) && std::isnan(b)) || a == b)
          << config.stages[s].name << " document " << i << ": " << a << " vs " << b;
    }
  }
}

// symbols_to_words scores a text without '#' or an ellipsis mark without splitting it: the
// score must be the filter's rule applied to the words (NeMo's code: an ellipsis mark, or runs
// of '#' more than half the word), computed here directly.
TEST(NemoChainLazy, SymbolsToWordsShortcutMatchesTheRule) {
  for (const std::string& text : varied_corpus(600)) {
    DocSegments d;
    d.reset(text);
    size_t symbols = 0;
    for (const TextPiece& w : d.words()) {
      std::string_view word = d.piece(w);
      size_t hash_runs = 0;  // matches of "#+"
      for (size_t i = 0; i < word.size(); ++i)
        hash_runs += word[i] == '#' && (i == 0 || word[i - 1] != '#');
      const bool ellipsis = word == "..." || word == "[...]" || word == "\xe2\x80\xa6" ||
                            word == "(...)" || word == "[\xe2\x80\xa6]" || word == "-\xc2\xbb";
      symbols += ellipsis || 2 * hash_runs > w.chars;
    }
    const double expected =
        d.words().empty() ? 1.0 : static_cast<double>(symbols) / d.words().size();
    testing::Outcome o = testing::run_filter("symbols_to_words", {}, text);
    EXPECT_EQ(o.score, expected) << ::testing::PrintToString(text);
  }
}

// bullets scores a text with a letter or digit and no byte E2 (which every bullet glyph starts
// with) without splitting it into lines: the score must be the rule applied to the lines.
TEST(NemoChainLazy, BulletsShortcutMatchesTheRule) {
  const std::vector<std::string> glyphs = {"•", "‣", "⁃", "⁌", "⁍", "∙",
                                           "○", "●", "◘", "◦", "⦾", "⦿"};
  for (const std::string& g : glyphs) EXPECT_EQ(static_cast<unsigned char>(g[0]), 0xE2u) << g;
  auto texts = varied_corpus(600);
  texts.push_back("• one\n• two\n\xe2\x80\xa8 • three\n");  // LINE SEPARATOR then a bullet
  texts.push_back("• one\n");
  texts.push_back("• \n");
  for (const std::string& text : texts) {
    DocSegments d;
    d.reset(text);
    size_t bullets = 0;
    for (const TextPiece& l : d.lines()) {
      std::string_view s = python_lstrip(d.piece(l));
      for (const std::string& g : glyphs) bullets += s.starts_with(g);
    }
    const double expected =
        d.lines().empty() ? 1.0 : static_cast<double>(bullets) / d.lines().size();
    testing::Outcome o = testing::run_filter("bullets", {}, text);
    EXPECT_EQ(o.score, expected) << ::testing::PrintToString(text);
  }
}

TEST(NemoChainLazy, AnEarlyDropComputesNothingAfterItsFilter) {
  const std::string kept_text =
      "The quality of a corpus depends on the filters that have been applied to it.\n"
      "Each filter looks at one property of a document and keeps it when that property lies "
      "within a range.\n\n"
      "Some filters count characters, others split the text into words or lines, and the last "
      "ones look for repeated phrases of two to ten words.\n"
      "A document that fails an early check never needs the later, more costly analysis.\n\n"
      "This paragraph exists to make the text long enough, with varied words and sentences, "
      "so that every one of the twenty eight filters of the English chain keeps it.\n";
  const std::vector<std::string> texts = {
      "$$$ %%% &&& *** ;;; :: -- == ++ ~~ ^^ @@",  // non_alpha_numeric drops it
      "https://example.org/abcdefghijklmnopqrstuvwxyz and text",  // urls drops it
      kept_text,
      "A short note with too few words to be kept.",  // word_count drops it
  };
  ChainRun run = run_chain(nemo_chain(false), texts);
  ASSERT_EQ(run.reasons[0], "non_alpha_numeric/alpha_numeric");
  ASSERT_EQ(run.reasons[1], "urls/urls_ratio");
  ASSERT_EQ(run.reasons[2], "kept");
  ASSERT_EQ(run.reasons[3], "word_count/word_count");
  // Split into words (long_word and word_count need them), but not into lines or n-grams.
  DocSegments& short_note = doc_segments(*run.batch, 3);
  EXPECT_TRUE(short_note.computed(DocSegments::kWords));
  EXPECT_FALSE(short_note.computed(DocSegments::kLines));
  EXPECT_FALSE(short_note.computed(DocSegments::kWordIds));
  EXPECT_FALSE(short_note.ngrams_started());
  for (size_t i : {0, 1}) {
    DocSegments& d = doc_segments(*run.batch, i);
    EXPECT_TRUE(d.computed(DocSegments::kChars)) << i;
    EXPECT_FALSE(d.computed(DocSegments::kWords)) << i;
    EXPECT_FALSE(d.computed(DocSegments::kWordIds)) << i;
    EXPECT_FALSE(d.computed(DocSegments::kLines)) << i;
    EXPECT_FALSE(d.computed(DocSegments::kParagraphs)) << i;
    EXPECT_FALSE(d.ngrams_started()) << i;
  }
  DocSegments& kept = doc_segments(*run.batch, 2);
  EXPECT_TRUE(kept.computed(DocSegments::kWords));
  EXPECT_TRUE(kept.computed(DocSegments::kWordIds));
  EXPECT_TRUE(kept.computed(DocSegments::kLines));
  EXPECT_TRUE(kept.computed(DocSegments::kParagraphs));
  EXPECT_TRUE(kept.ngrams_started());
  // The chain never asks for datatrove's tokens.
  EXPECT_FALSE(kept.computed(DocSegments::kTokens));
}

}  // namespace
}  // namespace winnow
