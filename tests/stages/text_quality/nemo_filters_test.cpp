// NeMo Curator's heuristic filters on boundary cases, scores worked out by hand from the rules
// in filters.md: exactly at the threshold (kept), just past it (dropped), empty text, one word,
// no newline, non-ASCII text. Each drop names the filter's reason and carries its score.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <random>
#include <regex>

#include "stages/heuristic_filter_test_support.h"
#include "text/python_text.h"

namespace winnow {
namespace {

using testing::Outcome;
using testing::repeat;
using testing::run_filter;

#define EXPECT_KEPT(outcome, expected_score)        \
  do {                                              \
    Outcome o_ = (outcome);                         \
    EXPECT_TRUE(o_.kept) << o_.reason;              \
    EXPECT_NEAR(o_.score, (expected_score), 1e-12); \
  } while (0)

#define EXPECT_DROPPED(outcome, expected_reason, expected_score) \
  do {                                                           \
    Outcome o_ = (outcome);                                      \
    EXPECT_FALSE(o_.kept);                                       \
    EXPECT_EQ(o_.reason, (expected_reason));                     \
    EXPECT_NEAR(o_.score, (expected_score), 1e-12);              \
  } while (0)

Outcome f(const std::string& stage, const std::string& text,
          std::map<std::string, StageParams::Value> params = {}) {
  return run_filter(stage, std::move(params), text);
}

TEST(NemoCharFilters, NonAlphaNumeric) {
  const char* s = "non_alpha_numeric";
  EXPECT_KEPT(f(s, "ab c"), 0.25);  // the space: 1 of 4, exactly the cutoff
  EXPECT_DROPPED(f(s, "a b c"), "non_alpha_numeric/alpha_numeric", 0.4);
  EXPECT_KEPT(f(s, "ab\nc?!,."), 0.0);  // \n ? ! , . count as alphanumeric
  EXPECT_DROPPED(f(s, ""), "non_alpha_numeric/alpha_numeric", 1.0);
  EXPECT_KEPT(f(s, "word"), 0.0);
  EXPECT_DROPPED(f(s, "ééé1"), "non_alpha_numeric/alpha_numeric", 0.75);  // é is not [a-zA-Z]
}

TEST(NemoCharFilters, Numbers) {
  const char* s = "numbers";
  EXPECT_KEPT(f(s, "123" + std::string(17, 'x')), 0.15);
  EXPECT_DROPPED(f(s, "1234" + std::string(16, 'x')), "numbers/numbers_ratio", 0.2);
  EXPECT_DROPPED(f(s, ""), "numbers/numbers_ratio", 1.0);
  EXPECT_KEPT(f(s, "٣٣٣x"), 0.0);                              // Arabic-Indic digits are not [0-9]
  EXPECT_DROPPED(f(s, "2024"), "numbers/numbers_ratio", 1.0);  // one word, no newline
}

TEST(NemoCharFilters, Urls) {
  const char* s = "urls";
  // "http://a.b" is 10 code points; the space ends it.
  EXPECT_KEPT(f(s, "http://a.b " + std::string(39, 'y')), 0.2);
  EXPECT_DROPPED(f(s, "http://a.b " + std::string(38, 'y')), "urls/urls_ratio", 10.0 / 49);
  // %XX escapes are URL characters; "HTTP://" and a bare "http://" are not URLs.
  EXPECT_DROPPED(f(s, "https://x.org/a%20b"), "urls/urls_ratio", 1.0);  // all 19 are URL
  EXPECT_KEPT(f(s, "see HTTP://X.ORG and http:// then"), 0.0);
  EXPECT_DROPPED(f(s, ""), "urls/urls_ratio", 1.0);
  EXPECT_KEPT(f(s, "é http://é"), 0.0);  // no URL character after the scheme
}

TEST(NemoCharFilters, UrlsFoundByTheirSchemeSeparator) {
  const char* s = "urls";
  // URLs are found by their "://": "https" before it wins over "http", a "://" inside a URL
  // (its characters include ':' and '/') starts nothing, and "shttp://" holds "http://".
  EXPECT_KEPT(f(s, "httpshttp://a " + std::string(27, 'y')), 8.0 / 41);
  EXPECT_KEPT(f(s, "xhttps://a " + std::string(35, 'y')), 9.0 / 46);
  EXPECT_DROPPED(f(s, "http://a.b/http://c"), "urls/urls_ratio", 1.0);  // one URL of 19
  EXPECT_KEPT(f(s, "://a http:/ :// ttp://b " + std::string(20, 'y')), 0.0);
}

TEST(NemoCharFilters, UrlsAsNeMosRegexFindsThem) {
  // NeMo's regex_url (stages/text/utils/constants.py), findall's matches summed, against the
  // filter's score on random texts made of the pieces URLs are made of.
  const std::regex nemo_url(
      R"(https?://(?:[A-Za-z0-9$\-_@.&+/:=?#~]|[!*\(\),]|(?:%[0-9A-Fa-f]{2}))+)");
  const char* pieces[] = {"http", "https", "s",  "://", ":", "/",  "a",
                          "h",    "%2F",   "%g", " ",   ",", "\"", "é"};
  std::mt19937 rng(33);
  for (int round = 0; round < 500; ++round) {
    std::string text;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) text += pieces[rng() % std::size(pieces)];
    size_t url_chars = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), nemo_url);
         it != std::sregex_iterator(); ++it) {
      url_chars += static_cast<size_t>(it->length());  // URL characters are ASCII
    }
    const Outcome o = run_filter("urls", {{"max_url_to_text_ratio", 1.0}}, text);
    ASSERT_NEAR(o.score, static_cast<double>(url_chars) / static_cast<double>(python_len(text)),
                1e-12)
        << text;
  }
}

TEST(NemoCharFilters, WhiteSpace) {
  const char* s = "white_space";
  EXPECT_KEPT(f(s, "ab c"), 0.25);
  EXPECT_DROPPED(f(s, "a b c"), "white_space/white_space", 0.4);
  EXPECT_DROPPED(f(s, "ab\b\t"), "white_space/white_space", 0.5);  // \b and \t count
  EXPECT_KEPT(f(s, "a\u00a0b"), 0.0);                              // NBSP is not in NeMo's list
  EXPECT_DROPPED(f(s, ""), "white_space/white_space", 1.0);
}

TEST(NemoCharFilters, Parentheses) {
  const char* s = "parentheses";
  EXPECT_KEPT(f(s, "(" + std::string(9, 'x')), 0.1);
  EXPECT_DROPPED(f(s, "()" + std::string(8, 'x')), "parentheses/parentheses_ratio", 0.2);
  EXPECT_DROPPED(f(s, "⟨⟩" + std::string(8, 'x')), "parentheses/parentheses_ratio", 0.2);
  EXPECT_KEPT(f(s, "<>" + std::string(8, 'x')), 0.0);  // < > are not in the set
  EXPECT_DROPPED(f(s, ""), "parentheses/parentheses_ratio", 1.0);
}

TEST(NemoCharFilters, PornographicUrls) {
  const char* s = "pornographic_urls";
  EXPECT_DROPPED(f(s, "visit http://example.com/porn now"), "pornographic_urls/pornographic_urls",
                 1.0);
  EXPECT_KEPT(f(s, "the word porn outside a URL"), 0.0);
  EXPECT_KEPT(f(s, ""), 0.0);
}

TEST(NemoCharFilters, Histogram) {
  const char* s = "histogram";
  EXPECT_KEPT(f(s, "Hello world, this is English."), 1.0);
  // Cyrillic letters are not in the English set: "мир" is 3 of 5 code points ("a мир").
  EXPECT_DROPPED(f(s, "a мир"), "histogram/histogram", 0.4);
  EXPECT_KEPT(f(s, "мир, мир!", {{"lang", std::string("ru")}}), 1.0);
  // Strictly more than the threshold: 4 of 5 (0.8) is dropped.
  EXPECT_DROPPED(f(s, "abcdж"), "histogram/histogram", 0.8);
  EXPECT_KEPT(f(s, "東京タワー", {{"lang", std::string("ja")}}), 1.0);
  EXPECT_KEPT(f(s, ""), 1.0);
  ReasonTable reasons;
  StageContext context(reasons, "h", 0, 42);
  auto bad = testing::build_stage(*testing::all_stages().find("histogram"),
                                  {{"lang", std::string("xx")}}, context);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("'lang'"));
}

TEST(NemoWordFilters, SymbolsToWords) {
  const char* s = "symbols_to_words";
  EXPECT_KEPT(f(s, "... " + repeat("w", 9)), 0.1);  // 1 of 10 words
  EXPECT_DROPPED(f(s, "... … " + repeat("w", 8)), "symbols_to_words/symbol_to_word", 0.2);
  // NeMo's code: runs of '#' more than half the word's code points. "#" (1 of 1) and "#a#"
  // (2 of 3) are symbol words; "#a" (1 of 2), "##" (1 run of 2) and "##a" (1 of 3) are not.
  EXPECT_KEPT(f(s, "#a " + repeat("w", 9)), 0.0);
  EXPECT_DROPPED(f(s, "#a# " + repeat("w", 4)), "symbols_to_words/symbol_to_word", 0.2);
  EXPECT_DROPPED(f(s, "# w w w"), "symbols_to_words/symbol_to_word", 0.25);
  EXPECT_KEPT(f(s, "## ##a ### " + repeat("w", 7)), 0.0);
  EXPECT_DROPPED(f(s, "[...]"), "symbols_to_words/symbol_to_word", 1.0);  // one word
  // Only the words holding "...", "…" or "-»" can be marks: here [...], (...), […] and -» are;
  // "....." (holding "..." three times), "a...b", "…x" and "#..." are not.
  EXPECT_KEPT(f(s, "[...] (...) [\xE2\x80\xA6] -\xC2\xBB ..... a...b \xE2\x80\xA6x #... " +
                       repeat("w", 32)),
              0.1);  // 4 of 40 words
  EXPECT_DROPPED(f(s, "[...] (...) [\xE2\x80\xA6] -\xC2\xBB ..... a...b \xE2\x80\xA6x #... " +
                          repeat("w", 31)),
                 "symbols_to_words/symbol_to_word", 4.0 / 39);
  EXPECT_DROPPED(f(s, ""), "symbols_to_words/symbol_to_word", 1.0);
}

TEST(NemoWordFilters, LongWord) {
  const char* s = "long_word";
  EXPECT_KEPT(f(s, "a " + std::string(1000, 'x')), 1000.0);
  EXPECT_DROPPED(f(s, std::string(1001, 'x')), "long_word/max_word_length", 1001.0);
  std::string e1000;
  for (int i = 0; i < 1000; ++i) e1000 += "é";
  EXPECT_KEPT(f(s, e1000), 1000.0);  // code points, not bytes
  EXPECT_KEPT(f(s, ""), 0.0);
}

TEST(NemoWordFilters, WordCount) {
  const char* s = "word_count";
  EXPECT_KEPT(f(s, repeat("w", 50)), 50.0);
  EXPECT_DROPPED(f(s, repeat("w", 49)), "word_count/word_count", 49.0);
  EXPECT_DROPPED(f(s, "one"), "word_count/word_count", 1.0);
  EXPECT_DROPPED(f(s, ""), "word_count/word_count", 0.0);
  EXPECT_KEPT(f(s, repeat("w", 3), {{"min_words", int64_t{1}}, {"max_words", int64_t{3}}}), 3.0);
  EXPECT_DROPPED(f(s, repeat("w", 4), {{"min_words", int64_t{1}}, {"max_words", int64_t{3}}}),
                 "word_count/word_count", 4.0);
  // Words split on every Python space (here NBSP and an ideographic space).
  EXPECT_KEPT(f(s, "a\u00a0b\u3000c", {{"min_words", int64_t{3}}}), 3.0);
}

TEST(NemoWordFilters, MeanWordLength) {
  const char* s = "mean_word_length";
  EXPECT_KEPT(f(s, "abc abc"), 3.0);
  EXPECT_DROPPED(f(s, "ab abc"), "mean_word_length/mean_word_length", 2.5);
  // NeMo's code averages every word, punctuation included: (3 + 1 + 2) / 3.
  EXPECT_DROPPED(f(s, "abc . ()"), "mean_word_length/mean_word_length", 2.0);
  EXPECT_KEPT(f(s, "abcd ..."), 3.5);
  EXPECT_KEPT(f(s, "abcdefghij"), 10.0);
  EXPECT_DROPPED(f(s, "abcdefghijk"), "mean_word_length/mean_word_length", 11.0);
  EXPECT_KEPT(f(s, "ééé"), 3.0);
  Outcome empty = f(s, "");
  EXPECT_FALSE(empty.kept);  // NaN: no word to average
  EXPECT_TRUE(std::isnan(empty.score));
}

TEST(NemoWordFilters, CommonEnglishWords) {
  const char* s = "common_english_words";
  EXPECT_KEPT(f(s, "the cat and dog"), 2.0);
  // Lower case only, as NeMo's set lookup: "The" and "AND" do not count.
  EXPECT_DROPPED(f(s, "The cat AND dog"), "common_english_words/common_english_words", 0.0);
  EXPECT_DROPPED(f(s, "the cat"), "common_english_words/common_english_words", 1.0);
  EXPECT_KEPT(f(s, "the the the"), 2.0);  // stop_at_false caps the count
  EXPECT_KEPT(f(s, "the the the", {{"stop_at_false", false}}), 3.0);
  EXPECT_DROPPED(f(s, "the,"), "common_english_words/common_english_words", 0.0);
  EXPECT_DROPPED(f(s, ""), "common_english_words/common_english_words", 0.0);
}

TEST(NemoWordFilters, WordsWithoutAlphabets) {
  const char* s = "words_without_alphabets";
  EXPECT_KEPT(f(s, "a b c d 1"), 0.8);
  EXPECT_DROPPED(f(s, "a b c 1 2"), "words_without_alphabets/words_without_alphabets", 0.6);
  // NeMo's [[:alpha:]] (the regex module) is Unicode's Alphabetic property: é and Cyrillic are
  // letters, and so are Ⅻ (a letter number) and ः (a Devanagari vowel sign); Arabic-Indic
  // digits and a lone combining accent are not.
  EXPECT_KEPT(f(s, "é ü"), 1.0);
  EXPECT_DROPPED(f(s, "Ⅻ ١٢ 3 4 Дмитрий"), "words_without_alphabets/words_without_alphabets", 0.4);
  EXPECT_DROPPED(f(s, "\u0903 \u0301 _"), "words_without_alphabets/words_without_alphabets",
                 1.0 / 3);
  EXPECT_KEPT(f(s, "x1"), 1.0);
  EXPECT_DROPPED(f(s, ""), "words_without_alphabets/words_without_alphabets", 0.0);
}

TEST(NemoLineFilters, Bullets) {
  const char* s = "bullets";
  std::string nine = repeat("  • item", 9, "\n") + "\nplain";
  EXPECT_KEPT(f(s, nine), 0.9);
  EXPECT_DROPPED(f(s, repeat("◦ x", 3, "\n\n")), "bullets/bullet_ratio",
                 1.0);                       // blank lines skipped
  EXPECT_KEPT(f(s, "- dash\n* star"), 0.0);  // not NeMo bullets
  EXPECT_DROPPED(f(s, ""), "bullets/bullet_ratio", 1.0);
}

TEST(NemoLineFilters, Punctuation) {
  const char* s = "punctuation";
  // 20 lines, 17 without an end mark: 0.85.
  std::string at = repeat("no mark", 17, "\n") + "\nends.\nasks?\nquotes\"";
  EXPECT_KEPT(f(s, at), 0.85);
  std::string past = repeat("no mark", 18, "\n") + "\nends.\nsays'";
  EXPECT_DROPPED(f(s, past), "punctuation/punctuation", 0.9);
  EXPECT_KEPT(f(s, "trailing space after the mark.  \n\nand another!"), 0.0);
  EXPECT_DROPPED(f(s, "one line, no newline"), "punctuation/punctuation", 1.0);
  EXPECT_DROPPED(f(s, ""), "punctuation/punctuation", 1.0);
  EXPECT_KEPT(f(s, "日本語の文。\nUne phrase."), 0.5);  // 。 is not one of NeMo's end marks
}

TEST(NemoLineFilters, Ellipsis) {
  const char* s = "ellipsis";
  std::string at = "a...\nb …\nc Read More\n" + repeat("plain", 7, "\n");
  EXPECT_KEPT(f(s, at), 0.3);
  std::string past = "a...\nb …\nc [...]\nd -»\n" + repeat("plain", 6, "\n");
  EXPECT_DROPPED(f(s, past), "ellipsis/ellipsis", 0.4);
  EXPECT_DROPPED(f(s, ""), "ellipsis/ellipsis", 1.0);
  EXPECT_KEPT(f(s, "no newline."), 0.0);
}

TEST(NemoLineFilters, BoilerPlateString) {
  const char* s = "boilerplate_string";
  std::string at = "Our Privacy Policy.\n\nText.\n\nWe use cookies here.\n\nMore.\n\nEnd.";
  EXPECT_KEPT(f(s, at), 0.4);  // 2 of 5 paragraphs
  std::string past = "Terms of Use apply.\n\nText.\n\nThis site uses cookies.\n\nEnd.";
  EXPECT_DROPPED(f(s, past), "boilerplate_string/boilerplate_string_ratio", 0.5);
  EXPECT_DROPPED(f(s, "Fine text.\n\nLorem Ipsum dolor."),
                 "boilerplate_string/boilerplate_string_ratio", 1.0);
  EXPECT_DROPPED(f(s, "one paragraph about the cookie policy"),
                 "boilerplate_string/boilerplate_string_ratio", 1.0);
  EXPECT_KEPT(f(s, ""), 0.0);  // one empty paragraph, no phrase
  EXPECT_KEPT(f(s, "Über Datenschutz."), 0.0);
}

TEST(NemoLineFilters, BoilerPlateCuesAtEveryOffsetAndInAnyCase) {
  // The cues are looked for 16 positions at a time in the text as it is: each one, in mixed
  // case, at every offset of a long text must be found, and near misses ("c00kie", "lorem
  // ipsun", a letter short at the end) must not be.
  const char* s = "boilerplate_string";
  for (size_t at = 0; at <= 40; ++at) {
    const std::string pad(at, 'x');
    const std::string tail(40 - at, 'x');
    EXPECT_DROPPED(f(s, pad + "LoReM IpSuM" + tail), "boilerplate_string/boilerplate_string_ratio",
                   1.0);
    // One paragraph holding a policy phrase of each of the three cues: 1 of 1.
    for (const char* phrase : {"Uses COOKIES", "PRIVACY policy", "Terms Of Use"}) {
      SCOPED_TRACE(std::string(phrase) + " at " + std::to_string(at));
      EXPECT_DROPPED(f(s, pad + phrase + tail), "boilerplate_string/boilerplate_string_ratio", 1.0);
    }
    EXPECT_KEPT(f(s, pad + "lorem ipsun c00kie privac terms of us" + tail), 0.0);
    EXPECT_KEPT(f(s, pad + "lorem ipsu"), 0.0);
  }
}

TEST(NemoLineFilters, Substring) {
  const char* s = "substring";
  EXPECT_KEPT(f(s, "# Title\ntext",
                {{"substring", std::string("# ")}, {"position", std::string("prefix")}}),
              1.0);
  EXPECT_DROPPED(
      f(s, "text # x", {{"substring", std::string("# ")}, {"position", std::string("prefix")}}),
      "substring/substring", 0.0);
  EXPECT_KEPT(f(s, "text # x", {{"substring", std::string("# ")}}), 1.0);
  EXPECT_KEPT(f(s, "ends.", {{"substring", std::string(".")}, {"position", std::string("suffix")}}),
              1.0);
}

TEST(NemoRepetitionFilters, RepeatedLines) {
  const char* s = "repeated_lines";
  // 10 lines, 7 distinct: 0.7.
  std::string at = repeat("same", 4, "\n") + "\nb\nc\nd\ne\nf\ng";
  EXPECT_KEPT(f(s, at), 0.7);
  std::string past = repeat("same", 5, "\n") + "\nc\nd\ne\nf\ng";
  EXPECT_DROPPED(f(s, past), "repeated_lines/repeated_lines", 0.6);
  EXPECT_KEPT(f(s, "x\nx \nX"), 1.0);  // exact strings: no normalisation
  EXPECT_KEPT(f(s, ""), 1.0);          // no line: a ratio over nothing scores 1
}

TEST(NemoRepetitionFilters, RepeatedParagraphs) {
  const char* s = "repeated_paragraphs";
  std::string at = repeat("para", 4, "\n\n") + "\n\nb\n\nc\n\nd\n\ne\n\nf\n\ng";
  EXPECT_KEPT(f(s, at), 0.7);
  std::string past = repeat("para", 5, "\n\n") + "\n\nc\n\nd\n\ne\n\nf\n\ng";
  EXPECT_DROPPED(f(s, past), "repeated_paragraphs/repeated_paragraphs", 0.6);
  EXPECT_KEPT(f(s, "one paragraph"), 1.0);
  // "a\n\n\n\na" splits into "a", "", "a": 2 distinct of 3.
  EXPECT_DROPPED(f(s, "a\n\n\n\na"), "repeated_paragraphs/repeated_paragraphs", 2.0 / 3);
}

TEST(NemoRepetitionFilters, RepeatedLinesByChar) {
  const char* s = "repeated_lines_by_char";
  // Lines aaaa, aaaa, 12 b's: distinct 16 of 20 code points.
  EXPECT_KEPT(f(s, "aaaa\naaaa\n" + std::string(12, 'b')), 0.8);
  EXPECT_DROPPED(f(s, "aaaa\naaaa\naaaa\n" + std::string(12, 'b')),
                 "repeated_lines_by_char/repeated_lines_char", 16.0 / 24);
  EXPECT_KEPT(f(s, "éééé\néééé\n" + std::string(12, 'b')), 0.8);  // code points
  EXPECT_KEPT(f(s, ""), 1.0);
}

TEST(NemoRepetitionFilters, RepeatedParagraphsByChar) {
  const char* s = "repeated_paragraphs_by_char";
  EXPECT_KEPT(f(s, "aaaa\n\naaaa\n\n" + std::string(12, 'b')), 0.8);
  EXPECT_DROPPED(f(s, "aaaa\n\naaaa\n\naaaa\n\n" + std::string(12, 'b')),
                 "repeated_paragraphs_by_char/repeated_paragraphs_char", 16.0 / 24);
  EXPECT_KEPT(f(s, ""), 1.0);  // one empty paragraph: 0 of 0 code points
}

TEST(NemoRepetitionFilters, RepeatingTopNGrams) {
  const char* s = "repeating_top_ngrams";
  // "a b" occurs twice (6 code points) in 30: 0.2.
  EXPECT_KEPT(f(s, "a b a b ccc ddd eee fff ggg hh"), 0.2);
  EXPECT_DROPPED(f(s, "a b a b ccc ddd eee fff ggg h"), "repeating_top_ngrams/repeating_top_ngrams",
                 6.0 / 29);
  // The joined n-gram is removed wherever it occurs in the text, inside other words too:
  // "b c" is the top bigram (twice) and also occurs inside "ab cd": 3 x 3 of 13.
  EXPECT_DROPPED(f(s, "b c b c ab cd"), "repeating_top_ngrams/repeating_top_ngrams", 9.0 / 13);
  EXPECT_DROPPED(f(s, "one"), "repeating_top_ngrams/repeating_top_ngrams", 1.0);  // < n words
  EXPECT_DROPPED(f(s, ""), "repeating_top_ngrams/repeating_top_ngrams", 1.0);
  // n = 3, non-ASCII: "é ü ö" (5 code points) twice in 5+1+5+1+6 = 18.
  EXPECT_DROPPED(f(s, "é ü ö é ü ö zzzzzz", {{"n", int64_t{3}}}),
                 "repeating_top_ngrams/repeating_top_ngrams", 10.0 / 18);
}

TEST(NemoRepetitionFilters, RepeatingDuplicateNGrams) {
  const char* s = "repeating_duplicate_ngrams";
  // Bigrams a b, b a, a b(seen): 1 + 1 + 1 space = 3 code points of 15.
  EXPECT_KEPT(f(s, "a b a b cc dd e"), 0.2);
  EXPECT_DROPPED(f(s, "a b a b cc ddd"), "repeating_duplicate_ngrams/repeating_dup_ngrams",
                 3.0 / 14);
  // Overlapping duplicates count each word once: "a b c a b c" with n=2 -> a b(seen at 3):
  // 3; b c(seen at 4): overlap 1 -> 1 word + 1 space = 2. Total 5 of 11.
  EXPECT_DROPPED(f(s, "a b c a b c"), "repeating_duplicate_ngrams/repeating_dup_ngrams", 5.0 / 11);
  EXPECT_DROPPED(f(s, "one"), "repeating_duplicate_ngrams/repeating_dup_ngrams", 1.0);
  EXPECT_DROPPED(f(s, ""), "repeating_duplicate_ngrams/repeating_dup_ngrams", 1.0);
  EXPECT_KEPT(f(s, "a b c d e f g h", {{"n", int64_t{5}}}), 0.0);
}

TEST(NemoRepetitionFilters, HugeRepetitiveDocumentStaysLinear) {
  // 400,000 words of "a b": every n-gram repeats at every level; must finish in linear time.
  std::string text = repeat("a b", 200000);
  Outcome dup = f("repeating_duplicate_ngrams", text, {{"n", int64_t{10}}});
  EXPECT_FALSE(dup.kept);
  // The 10-grams at 0 and 1 are new; from 2 on each repeats, covering everything but the
  // first two words and their spaces ("a b "): (799,999 - 4) / 799,999.
  EXPECT_NEAR(dup.score, (text.size() - 4.0) / text.size(), 1e-12);
  Outcome top = f("repeating_top_ngrams", text, {{"n", int64_t{2}}});
  EXPECT_FALSE(top.kept);
  // "a b" (200,000 times, 3 code points each) removed leaves the spaces between the pairs.
  EXPECT_NEAR(top.score, 600000.0 / text.size(), 1e-12);
  // The tables shrink back for the next, small document.
  EXPECT_KEPT(f("repeating_duplicate_ngrams", "a b c d e f g", {{"n", int64_t{5}}}), 0.0);
}

TEST(NemoWordFilters, ChineseAndJapaneseAreSegmented) {
  // lang zh / ja: ICU's dictionary segmentation (NeMo: jieba / MeCab); other languages split on
  // white space, where an unspaced sentence is one word.
  const std::string zh = "我们今天去北京。天气很好！";
  EXPECT_DROPPED(f("word_count", zh, {{"min_words", int64_t{2}}}), "word_count/word_count", 1.0);
  Outcome seg = f("word_count", zh, {{"min_words", int64_t{2}}, {"lang", std::string("zh")}});
  EXPECT_TRUE(seg.kept);
  EXPECT_GE(seg.score, 6.0);
  EXPECT_TRUE(f("word_count", "東京タワーは高いです。",
                {{"min_words", int64_t{3}}, {"lang", std::string("ja")}})
                  .kept);
  // "北京" x 4: segmented words are joined without spaces. Top bigram "北京北京" occurs twice
  // without overlap: 8 of 8 code points. Duplicate bigrams: at 1 (2 words, 4 code points, no
  // spaces) and at 2 (1 new word, 2): 6 of 8.
  const std::string beijing = "北京北京北京北京";
  EXPECT_DROPPED(f("repeating_top_ngrams", beijing, {{"lang", std::string("zh")}}),
                 "repeating_top_ngrams/repeating_top_ngrams", 1.0);
  EXPECT_DROPPED(f("repeating_duplicate_ngrams", beijing, {{"lang", std::string("zh")}}),
                 "repeating_duplicate_ngrams/repeating_dup_ngrams", 0.75);
  // Mean word length over segmented words: "北京" x 4 is four 2-code-point words.
  EXPECT_DROPPED(f("mean_word_length", beijing, {{"lang", std::string("zh")}}),
                 "mean_word_length/mean_word_length", 2.0);
}

TEST(NemoFilters, BadParametersNameTheKey) {
  const StageSpec* spec = testing::all_stages().find("urls");
  ASSERT_NE(spec, nullptr);
  ReasonTable reasons;
  StageContext context(reasons, "urls", 0, 42);
  auto built = testing::build_stage(*spec, {{"max_url_to_text_ratio", 1.5}}, context);
  ASSERT_FALSE(built.is_ok());
  EXPECT_THAT(built.status().message(), ::testing::HasSubstr("max_url_to_text_ratio"));
  spec = testing::all_stages().find("repeating_top_ngrams");
  auto bad_n = testing::build_stage(*spec, {{"n", int64_t{0}}}, context);
  ASSERT_FALSE(bad_n.is_ok());
  EXPECT_THAT(bad_n.status().message(), ::testing::HasSubstr("'n'"));
}

}  // namespace
}  // namespace winnow
