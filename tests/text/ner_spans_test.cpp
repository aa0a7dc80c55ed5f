// text/ner_spans: the word split (byte offsets), label names, BIO merging and the rule spans'
// precedence, against hand-derived cases.
#include "text/ner_spans.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace winnow {
namespace {

std::vector<std::string> word_texts(std::string_view text) {
  std::vector<WordRange> words;
  split_ner_words(text, words);
  std::vector<std::string> out;
  for (const WordRange& w : words) out.emplace_back(text.substr(w.begin, w.end - w.begin));
  return out;
}

TEST(NerWords, SplitOnWhitespaceAndPunctuationKeepingByteOffsets) {
  std::vector<WordRange> words;
  split_ner_words("  Alice  met\tBob,in São-Paulo.", words);
  EXPECT_EQ(
      words,
      (std::vector<WordRange>{
          {2, 7}, {9, 12}, {13, 16}, {16, 17}, {17, 19}, {20, 24}, {24, 25}, {25, 30}, {30, 31}}));
  EXPECT_EQ(word_texts("  Alice  met\tBob,in São-Paulo."),
            (std::vector<std::string>{"Alice", "met", "Bob", ",", "in", "São", "-", "Paulo", "."}));
  EXPECT_EQ(word_texts("e-mail: a@b.c!!"),
            (std::vector<std::string>{"e", "-", "mail", ":", "a", "@", "b", ".", "c", "!", "!"}));
  split_ner_words(" \n\t ", words);
  EXPECT_TRUE(words.empty());
}

TEST(NerLabels, BioPrefixesAndEntityNames) {
  auto is = [](std::string_view label, BioTag::Kind kind, PiiEntity entity) {
    BioTag tag = parse_bio_label(label);
    return tag.kind == kind && tag.entity == entity;
  };
  EXPECT_TRUE(is("B-PER", BioTag::kBegin, PiiEntity::kPerson));
  EXPECT_TRUE(is("I-PER", BioTag::kInside, PiiEntity::kPerson));
  EXPECT_TRUE(is("B-PERSON", BioTag::kBegin, PiiEntity::kPerson));
  EXPECT_TRUE(is("i-loc", BioTag::kInside, PiiEntity::kLocation));
  EXPECT_TRUE(is("B-GPE", BioTag::kBegin, PiiEntity::kLocation));
  EXPECT_TRUE(is("S-ORG", BioTag::kBegin, PiiEntity::kOrganization));
  EXPECT_TRUE(is("E-ORGANIZATION", BioTag::kInside, PiiEntity::kOrganization));
  EXPECT_TRUE(is("B_ORG", BioTag::kBegin, PiiEntity::kOrganization));
  EXPECT_TRUE(is("PER", BioTag::kInside, PiiEntity::kPerson));  // the IO scheme
  EXPECT_EQ(parse_bio_label("O").kind, BioTag::kOutside);
  EXPECT_EQ(parse_bio_label("B-MISC").kind, BioTag::kOutside);
  EXPECT_EQ(parse_bio_label("I-DATE").kind, BioTag::kOutside);
  EXPECT_EQ(parse_bio_label("X-PER").kind, BioTag::kOutside);
  EXPECT_EQ(parse_bio_label("label_3").kind, BioTag::kOutside);
}

std::vector<PiiSpan> merge(std::string_view text, const std::vector<std::string>& labels) {
  std::vector<WordRange> words;
  split_ner_words(text, words);
  std::vector<BioTag> tags;
  for (const std::string& label : labels) tags.push_back(parse_bio_label(label));
  std::vector<PiiSpan> out;
  merge_bio_tags(words, tags, out);
  return out;
}

TEST(NerMerge, RunsOfBeginAndInsideBecomeSpansOverTheirWords) {
  // B-PER I-PER O B-LOC: two spans, "Alice  Smith" (the space between inside) and "Paris".
  EXPECT_EQ(merge("Alice  Smith in Paris", {"B-PER", "I-PER", "O", "B-LOC"}),
            (std::vector<PiiSpan>{{0, 12, PiiEntity::kPerson}, {16, 21, PiiEntity::kLocation}}));
  // An I- with no B- before it starts an entity; an I- of another kind starts another.
  EXPECT_EQ(
      merge("new York Acme", {"O", "I-LOC", "I-ORG"}),
      (std::vector<PiiSpan>{{4, 8, PiiEntity::kLocation}, {9, 13, PiiEntity::kOrganization}}));
  // B- after B- of the same kind: two entities side by side.
  EXPECT_EQ(merge("Alice Bob", {"B-PER", "B-PER"}),
            (std::vector<PiiSpan>{{0, 5, PiiEntity::kPerson}, {6, 9, PiiEntity::kPerson}}));
  // O between two I- breaks the run; punctuation words are words too.
  EXPECT_EQ(
      merge("Acme , Corp", {"I-ORG", "O", "I-ORG"}),
      (std::vector<PiiSpan>{{0, 4, PiiEntity::kOrganization}, {7, 11, PiiEntity::kOrganization}}));
  EXPECT_EQ(merge("J. Smith", {"B-PER", "I-PER", "I-PER"}),
            (std::vector<PiiSpan>{{0, 8, PiiEntity::kPerson}}));
  EXPECT_TRUE(merge("a b", {"O", "B-MISC"}).empty());
}

TEST(NerMerge, RuleSpansWinOverOverlappingModelSpans) {
  std::vector<PiiSpan> rules = {{10, 20, PiiEntity::kEmailAddress},
                                {30, 35, PiiEntity::kPhoneNumber}};
  const std::vector<PiiSpan> model = {{0, 5, PiiEntity::kPerson},
                                      {8, 12, PiiEntity::kPerson},         // overlaps the e-mail
                                      {20, 25, PiiEntity::kLocation},      // touches it: kept
                                      {34, 40, PiiEntity::kOrganization},  // overlaps the phone
                                      {50, 55, PiiEntity::kPerson}};
  add_ner_spans(model, rules);
  EXPECT_EQ(rules, (std::vector<PiiSpan>{{0, 5, PiiEntity::kPerson},
                                         {10, 20, PiiEntity::kEmailAddress},
                                         {20, 25, PiiEntity::kLocation},
                                         {30, 35, PiiEntity::kPhoneNumber},
                                         {50, 55, PiiEntity::kPerson}}));
}

}  // namespace
}  // namespace winnow
