// clean_transcript, word_errors and char_errors against transcript_errors_reference.py (NeMo's
// ComputeWERStage cleaning and a brute-force edit distance in Python), on fixed transcripts with
// NeMo's special characters and on random ones.
#include "text/transcript_errors.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>

#include "core/json_text.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

struct Pair {
  std::string hyp, ref;
};

std::string utf8(std::u32string_view text) {
  std::string out;
  for (char32_t c : text) {
    if (c < 0x80) out += char(c);
    else if (c < 0x800) out += {char(0xC0 | c >> 6), char(0x80 | (c & 0x3F))};
    else if (c < 0x10000)
      out += {char(0xE0 | c >> 12), char(0x80 | (c >> 6 & 0x3F)), char(0x80 | (c & 0x3F))};
    else
      out += {char(0xF0 | c >> 18), char(0x80 | (c >> 12 & 0x3F)), char(0x80 | (c >> 6 & 0x3F)),
              char(0x80 | (c & 0x3F))};
  }
  return out;
}

std::vector<Pair> random_pairs(size_t count) {
  const std::vector<std::string> words = {"the", "Quick", "brown", "fox", "jumps", "over", "lazy",
                                          "dog's", "twenty-one", "\u201chello\u201d", "caf\u00e9",
                                          "\u00dcber", "<unk>", "a|b", "ok!", "well,", "why?",
                                          "x/y", "it\u2019s", "end."};
  std::mt19937 rng(39);
  auto sentence = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += (i ? (rng() % 5 ? " " : "  \t") : "") + words[rng() % words.size()];
    return s;
  };
  std::vector<Pair> pairs;
  for (size_t i = 0; i < count; ++i) pairs.push_back({sentence(rng() % 9), sentence(1 + rng() % 9)});
  return pairs;
}

TEST(TranscriptErrors, MatchNemosRulesAndABruteForceEditDistance) {
  std::vector<Pair> pairs = {
      {"the quick brown fox", "The quick brown fox."},
      {"", "hello world"},
      {"hello there world", "hello world"},
      {"\u00abBonjour\u00bb \u2014 dit-il\u2026", "bonjour dit il"},
      {"it's <unk> fine", "It\u2019s fine!"},
      {"a b c d", "d c b a"},
      {"\u00bfqu\u00e9? s\u00ed\u3001no\uff1f", "que si no"},
  };
  for (const Pair& p : random_pairs(200)) pairs.push_back(p);
  TempDir dir;
  std::string input;
  for (const Pair& p : pairs) {
    input += "{\"hyp\":";
    append_json_string(input, p.hyp);
    input += ",\"ref\":";
    append_json_string(input, p.ref);
    input += "}\n";
  }
  write_file(dir.file("in.jsonl"), input);
  std::string output;
  ASSERT_EQ(run_command("/usr/bin/python3 " + kSource + "/tests/text/transcript_errors_reference.py < " +
                            dir.file("in.jsonl"),
                        &output),
            0)
      << output;
  std::vector<std::string> lines = split_lines(output);
  ASSERT_EQ(lines.size(), pairs.size());
  simdjson::dom::parser parser;
  for (size_t i = 0; i < pairs.size(); ++i) {
    SCOPED_TRACE(pairs[i].hyp + " | " + pairs[i].ref);
    simdjson::dom::element expected = parser.parse(lines[i]);
    const std::u32string hyp = clean_transcript(pairs[i].hyp);
    const std::u32string ref = clean_transcript(pairs[i].ref);
    EXPECT_EQ(utf8(hyp), std::string_view(expected["hyp"]));
    EXPECT_EQ(utf8(ref), std::string_view(expected["ref"]));
    ErrorRate words = word_errors(hyp, ref), chars = char_errors(hyp, ref);
    EXPECT_EQ(words.errors, int64_t(expected["word_errors"]));
    EXPECT_EQ(words.tokens, int64_t(expected["words"]));
    EXPECT_EQ(chars.errors, int64_t(expected["char_errors"]));
    EXPECT_EQ(chars.tokens, int64_t(expected["chars"]));
  }
}

TEST(TranscriptErrors, RateIsErrorsOverReferenceTokens) {
  ErrorRate r = word_errors(U"a x c", U"a b c d");
  EXPECT_EQ(r.errors, 2);
  EXPECT_EQ(r.tokens, 4);
  EXPECT_DOUBLE_EQ(r.rate(), 0.5);
}

}  // namespace
}  // namespace winnow::testing
