#include "models/wordpiece_tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/wordpiece_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// The edge cases: accents and case, CJK and other scripts, control and format characters,
// whitespace of every kind, very long words, special tokens in the text, empty text.
std::vector<std::string> edge_cases() {
  return {
      "",
      "   \t\n ",
      "Café naïve résumé ÅNGSTRÖM Ærøskøbing façade",
      "İstanbul ıi ß ẞ Ǆ ǅ ǆ ﬁne ½ ² ① ℃",
      "e\xcc\x81 combining: a\xcc\x8a o\xcc\x88 n\xcc\x83",
      "日本語の文章です。中文测试，还有标点！한국어 텍스트",
      "Ελληνικά ΣΊΣΥΦΟΣ Русский ТЕКСТ العربية עברית ไทย",
      "tab\there\nnew\rline\x0b\x0c end",
      "ctrl\x01\x02\x1f\x7f chars \xc2\x85 next\xc2\xa0nbsp\xe2\x80\x80spaces\xe3\x80\x80ideo",
      "zero\xe2\x80\x8bwidth soft\xc2\xadhyphen bom\xef\xbb\xbf private\xee\x80\x80use",
      std::string(150, 'a') + " short",
      "supercalifragilisticexpialidocious pneumonoultramicroscopicsilicovolcanoconiosis",
      "[CLS] inside [SEP] text [MASK][MASK] and [UNK] [PAD]x",
      "punctuation!!! (brackets) [square] {curly} \"quotes\" 'single' «guillemets» — dash … $5 + 3 "
      "= 8 ^_^ `tick` | pipe ~",
      "numbers 3.14159 1,000,000 2026-12-01 v1.2.3",
      "email someone@example.com and https://www.debian.org/doc/?q=1&x=2",
      "\xef\xbf\xbd replacement \xef\xbf\xbd",
      "mixed日本English中文mixed",
      "emoji \xf0\x9f\x98\x80 \xf0\x9f\xa5\xb0 \xf0\x9f\xab\xa0 unassigned \xcd\xb8 end",
  };
}

struct Case {
  const char* name;
  WordPieceConfig config;
};

// Test names and failure messages show the configuration's name, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class WordPieceVsHf : public ::testing::TestWithParam<Case> {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    texts_ = new std::vector<std::string>(multilingual_paragraphs(40));
    vocabulary_ = new std::vector<std::string>(vocabulary_from(*texts_));
    for (const std::string& e : edge_cases()) texts_->push_back(e);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete texts_;
    delete vocabulary_;
  }
  static TempDir* dir_;
  static std::vector<std::string>* texts_;
  static std::vector<std::string>* vocabulary_;
};
TempDir* WordPieceVsHf::dir_ = nullptr;
std::vector<std::string>* WordPieceVsHf::texts_ = nullptr;
std::vector<std::string>* WordPieceVsHf::vocabulary_ = nullptr;

TEST_P(WordPieceVsHf, SameIdsAsHuggingFace) {
  const Case& c = GetParam();
  std::string path = dir_->file(std::string(c.name) + ".json");
  write_file(path, wordpiece_json(*vocabulary_, c.config));
  auto tokenizer = WordPieceTokenizer::load(path);
  ASSERT_TRUE(tokenizer.is_ok()) << tokenizer.status().message();
  std::vector<std::string> texts = *texts_;
  if (c.config.flagged_added_tokens) {
    // The added tokens in and out of words, and every character through BertNormalizer and
    // BertPreTokenizer.
    for (const char* text :
         {"a <mask> b  <mask>\t<mask>x<mask>", "the other theme, the_ the. (the) bathe the",
          "Debian debian DEBIAN debian-based debianutils Débian", "Paket PAKET Pakete paket",
          "a und b und  und\tundo und", "<mask>the<mask>"}) {
      texts.push_back(text);
    }
    for (std::string& text : every_character_texts()) texts.push_back(std::move(text));
  }
  std::vector<std::vector<int64_t>> expected = hf_reference_ids(dir_->path(), path, texts);
  ASSERT_EQ(expected.size(), texts.size());
  size_t mismatches = 0, tokens = 0, unknown = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<int64_t> ids;
    tokenizer.value()->encode(texts[i], ids);
    // Counted on the corpus (the character texts are mostly unknown).
    if (i < texts_->size()) {
      tokens += ids.size();
      unknown += std::count(ids.begin(), ids.end(), 1);
    }
    if (ids != expected[i] && ++mismatches <= 3) {
      ADD_FAILURE() << "text " << i << ": " << texts[i].substr(0, 300)
                    << "\nwinnow: " << ::testing::PrintToString(ids)
                    << "\nHF:     " << ::testing::PrintToString(expected[i]);
    }
  }
  EXPECT_EQ(mismatches, 0u) << "of " << texts.size() << " texts";
  // The texts exercise whole words, pieces and unknown words alike.
  if (c.config.truncation == 0) {
    EXPECT_GT(tokens, 20000u);
    EXPECT_GT(unknown, 100u);
    EXPECT_LT(unknown, tokens / 4);
  } else {
    EXPECT_LE(tokens, texts_->size() * c.config.truncation);
  }
}

INSTANTIATE_TEST_SUITE_P(Configurations, WordPieceVsHf,
                         ::testing::Values(Case{"uncased", {true, true, 0}},
                                           Case{"cased", {false, true, 0}},
                                           Case{"uncased_truncated", {true, false, 64}},
                                           Case{"cased_truncated", {false, false, 7}},
                                           Case{"uncased_added_tokens", {true, true, 0, true}},
                                           Case{"cased_added_tokens", {false, true, 0, true}}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(WordPieceTokenizer, TruncationOverride) {
  auto tokenizer = WordPieceTokenizer::parse(
      wordpiece_json({"a", "b", "c"}, {.lowercase = true, .truncation = 4}), "t.json");
  ASSERT_TRUE(tokenizer.is_ok()) << tokenizer.status().message();
  EXPECT_EQ(tokenizer.value()->max_length(), 4u);
  std::vector<int64_t> ids;
  tokenizer.value()->encode("a b c a b c", ids);
  EXPECT_EQ(ids, (std::vector<int64_t>{2, 5, 6, 3}));
  ids.clear();
  tokenizer.value()->encode("a b c a b c", ids, 6);
  EXPECT_EQ(ids, (std::vector<int64_t>{2, 5, 6, 7, 5, 3}));
  EXPECT_EQ(tokenizer.value()->pad_id(), 0);
}

TEST(WordPieceTokenizer, UnsupportedFilesAreClearErrors) {
  for (
      const auto& [json, message] : std::vector<std::pair<std::string, std::string>>{
          {"not json", "not valid JSON"},
          {R"({"model":{"type":"BPE","vocab":{}}})", "model type 'BPE' is not supported"},
          {R"({"model":{"type":"WordPiece","vocab":{"a":0},"unk_token":"[UNK]"}})",
           "unk_token '[UNK]' is not in the vocabulary"},
          {R"({"model":{"type":"WordPiece","vocab":{"a":0}},"pre_tokenizer":{"type":"Metaspace"}})",
           "pre_tokenizer must be BertPreTokenizer"}}) {
    auto tokenizer = WordPieceTokenizer::parse(json, "dir/tokenizer.json");
    ASSERT_FALSE(tokenizer.is_ok()) << json;
    EXPECT_THAT(tokenizer.status().message(), HasSubstr("dir/tokenizer.json"));
    EXPECT_THAT(tokenizer.status().message(), HasSubstr(message));
  }
  auto missing = WordPieceTokenizer::load("/nonexistent/tokenizer.json");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("/nonexistent/tokenizer.json"));
}

}  // namespace
}  // namespace winnow::testing
