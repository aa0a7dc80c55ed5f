#include "models/hf_tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <tuple>

#include "models/sentencepiece_test_models.h"
#include "models/tokenizer_files.h"
#include "models/unigram_test_models.h"
#include "models/wordpiece_test_models.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

// Edge cases: accents, CJK and other scripts, control and format characters, every kind of
// whitespace (\x0b and U+0085 are White_Space to Oniguruma, not to ICU's \s), runs of spaces and
// newlines, contractions, digits, very long words, each model's special tokens in the text,
// invalid UTF-8, empty text.
std::vector<std::string> edge_cases() {
  return {
      "",
      " ",
      "   \t\n ",
      "Café naïve résumé ÅNGSTRÖM Ærøskøbing façade",
      "İstanbul ıi ß ẞ Ǆ ǅ ǆ ﬁne ½ ² ① ℃",
      "e\xcc\x81 combining: a\xcc\x8a o\xcc\x88 n\xcc\x83",
      "日本語の文章です。中文测试，还有标点！한국어 텍스트",
      "Ελληνικά ΣΊΣΥΦΟΣ Русский ТЕКСТ العربية עברית ไทย हिन्दी",
      "tab\there\nnew\rline\x0b\x0c end",
      "ctrl\x01\x02\x1f\x7f chars \xc2\x85 next\xc2\xa0nbsp\xe2\x80\x80spaces\xe3\x80\x80ideo",
      "zero\xe2\x80\x8bwidth soft\xc2\xadhyphen bom\xef\xbb\xbf private\xee\x80\x80use",
      std::string(300, 'a') + " short " + std::string(40, 'x') + "yz",
      "supercalifragilisticexpialidocious pneumonoultramicroscopicsilicovolcanoconiosis",
      "I'm sure they'LL say we'VE done it; it's John's, isn't it? DON'T",
      "spaces    between  words   \n\n\n  and lines\r\n\r\nend  ",
      "trailing spaces   ",
      "numbers 3.14159 1,000,000 2026-12-01 v1.2.3 123456789 ٣٤٥ ⅷ",
      "punctuation!!! (brackets) [square] {curly} \"quotes\" «guillemets» — dash … $5 ^_^ ~",
      "email someone@example.com and https://www.debian.org/doc/?q=1&x=2",
      "code:\n    for (int i = 0; i < n; ++i) {\n\tx += y;\n    }\n",
      "<bos>text<eos> <start_of_turn>user\nhi<end_of_turn> <pad><unk><mask>",
      "<|begin_of_text|>hello<|end_of_text|> <|im_start|>user\nhi<|im_end|> <|endoftext|>",
      "[CLS] inside [SEP] <s> </s> <unused0> <unused6241> <image_soft_token>",
      "invalid \xff\xfe utf8 \xc3 cut",
      "\xef\xbf\xbd replacement \xef\xbf\xbd",
      "emoji \xf0\x9f\x98\x80 \xf0\x9f\xa5\xb0 \xf0\x9f\xab\xa0 "
      "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 end",
      "mixed日本English中文mixed",
  };
}

// Edge cases for the steps that split on character classes and for single_word added tokens:
// digits of many scripts, every Unicode punctuation category beside symbols that are not
// punctuation, NMT's control characters and odd spaces, script changes, and the words gemma3's
// single_word variant adds (the, und, 日本, über, --, ist) inside words, alone, at the text's
// start and end, beside punctuation, marks, joiners and non-ASCII letters; "und" strips the
// whitespace around it (Unicode spaces too, and a tab, which is a gemma3 token of its own).
std::vector<std::string> character_class_cases() {
  return {
      "digits ٣٤٥ ۱۲۳ ०१२ ০১২ ๑๒๓ ௧௨ ０１２３ ¹²³ ₁₂ ½ ¾ ⅷ Ⅻ ① ⑴ ⒈ 〇 𝟘𝟙 𐒠",
      "12a34 x1y22z333 1.5e10 3,14 007 ٣.٥ 2026-12-02 ０x１ a¹b²",
      "ascii $+<=>^`|~ !\"#%&'()*,-./:;?@[\\]_{} a$b+c<d=e>f^g`h|i~j",
      "Pc ‿⁀_﹍＿ Pd ‐‑–—―〜゠ Ps/Pe ⁅⁆〈〉《》「」『』【】〔〕（） Pi/Pf «»‘’“”‹›",
      "Po ¡¿·‧※‼⁇、。・！？፨।॥ symbols ±×÷€£¥©®°™∑√∞≈≠§¶ ←→ ♠ ☃",
      "a.b,c;d:e!f?g-h_i'j\"k(l)m[n]o{p}q «word» „Wort“ ‚x‘ ¿qué? ¡sí!",
      "\x01\x02\x08"
      "ctrl\x0bv\x0e\x1f\x7f c\xc2\x8f"
      "d\xc2\x9f e\tf\ng\x0ch\ri",
      "ogham\xe1\x9a\x80zw\xe2\x80\x8bsp\xe2\x80\x8cnj\xe2\x80\x8dj\xe2\x80\x8elrm"
      "\xe2\x80\x8frlm\xe2\x80\xa8ls\xe2\x80\xa9ps\xe2\x96\x81lb\xef\xbb\xbf"
      "bom"
      "\xef\xbf\xbdrep nul" +
          std::string(1, 0) + "end",
      "\x01leading control, \xe2\x80\x8bleading zero width",
      "the",
      "the end of the bathe, they theme the_ _the the1 1the the. (the) the, «the» the-the",
      "théthe the日本 日本語 日本 語 日本。 the\xcc\x81 the\xe2\x80\x8d x\xe2\x80\x8cthe",
      "über überall Über über-the sie ist's, Liste ist; Zwist ist",
      "a und b, Mund und  und\t und\xe3\x80\x80und \xc2\xa0und\xc2\xa0 "
      "x\xe2\x80\x83und\xe2\x80\x83y",
      "la de Paris, de de, lade de",
      "--the-- a--b a -- b --- — -- --",
      "Apples are りんご 林檎 どこで生れ。Yes カタカナー ひらがな mixed日本English中文",
      "  leading spaces then words",
      "Ελληνικά text and Кириллица and العربية with 123 and ٣٤٥",
  };
}

struct Case {
  const char* name;
  const char* file;       // under tokenizer_files_dir()
  // Members of the file replaced by other JSON values (variants of a real file): key, value.
  std::vector<std::pair<std::string, std::string>> edits;
  // Added tokens (JSON objects) put before the file's own.
  std::string added_tokens = {};
  // Also every character and the character class edge cases (not for the variants that only
  // change the post-processor or the merges).
  bool character_classes = false;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// `json` with the value of its first member named `key` replaced by `value`: the old value is
// skipped respecting strings and nesting (the keys edited occur once in the files).
std::string replace_member(std::string json, const std::string& key, const std::string& value) {
  size_t at = json.find("\"" + key + "\"");
  if (at == std::string::npos) throw std::runtime_error("no member " + key);
  size_t start = json.find(':', at + key.size() + 2) + 1;
  while (json[start] == ' ' || json[start] == '\n') ++start;
  size_t end = start;
  int depth = 0;
  for (bool in_string = false; end < json.size(); ++end) {
    char c = json[end];
    if (in_string) {
      if (c == '\\') {
        ++end;
      } else if (c == '"') {
        in_string = false;
        if (depth == 0) {
          ++end;
          break;
        }
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth <= 0) {
        end += depth == 0;
        break;
      }
    } else if (c == ',' && depth == 0) {
      break;
    }
  }
  return json.replace(start, end - start, value);
}

// Encodes each text and compares the ids with HF's, reporting the first three texts that
// differ; also checks count() (which never truncates). Returns the number of texts that differ.
size_t compare_with_hf(const TextTokenizer& tokenizer, const std::vector<std::string>& texts,
                       const std::vector<std::vector<int64_t>>& expected, size_t& tokens) {
  EXPECT_EQ(expected.size(), texts.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < texts.size() && i < expected.size(); ++i) {
    std::vector<int64_t> ids;
    tokenizer.encode(texts[i], ids);
    tokens += ids.size();
    if (tokenizer.max_length() == 0) {
      EXPECT_EQ(tokenizer.count(texts[i]), expected[i].size());
    } else {
      EXPECT_GE(tokenizer.count(texts[i]), expected[i].size());
    }
    if (ids != expected[i] && ++mismatches <= 3) {
      ADD_FAILURE() << "text " << i << ": " << texts[i].substr(0, 300)
                    << "\nwinnow: " << ::testing::PrintToString(ids)
                    << "\nHF:     " << ::testing::PrintToString(expected[i]);
    }
  }
  return mismatches;
}

class HfTokenizerVsHf : public ::testing::TestWithParam<Case> {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    texts_ = new std::vector<std::string>(multilingual_paragraphs(12));
    for (const std::string& e : edge_cases()) texts_->push_back(e);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete texts_;
  }
  static TempDir* dir_;
  static std::vector<std::string>* texts_;
};
TempDir* HfTokenizerVsHf::dir_ = nullptr;
std::vector<std::string>* HfTokenizerVsHf::texts_ = nullptr;

TEST_P(HfTokenizerVsHf, SameIdsAsHuggingFace) {
  const Case& c = GetParam();
  std::string files = tokenizer_files_dir();
  if (files.empty()) {
    GTEST_SKIP() << "the tokenizer files are absent and scripts/fetch_tokenizer_files could not "
                    "fetch them (no npm registry?)";
  }
  std::string path = files + "/" + c.file;
  if (!c.edits.empty() || !c.added_tokens.empty()) {
    // A variant of a real file (another pre-tokenizer or post-processor).
    std::string json = read_file(path);
    for (const auto& [key, value] : c.edits) json = replace_member(std::move(json), key, value);
    if (!c.added_tokens.empty()) {
      size_t list = json.find('[', json.find("\"added_tokens\""));
      json.insert(list + 1, c.added_tokens + ",");
    }
    path = dir_->file(std::string(c.name) + ".json");
    write_file(path, json);
  }
  auto tokenizer = load_text_tokenizer(path);
  ASSERT_TRUE(tokenizer.is_ok()) << tokenizer.status().message();
  std::vector<std::string> texts = *texts_;
  if (c.character_classes) {
    for (std::string& t : character_class_cases()) texts.push_back(std::move(t));
    for (std::string& t : every_character_texts()) texts.push_back(std::move(t));
  }
  std::vector<std::vector<int64_t>> expected = hf_reference_ids(dir_->path(), path, texts);
  ASSERT_EQ(expected.size(), texts.size());
  size_t tokens = 0;
  size_t mismatches = compare_with_hf(*tokenizer.value(), texts, expected, tokens);
  EXPECT_EQ(mismatches, 0u) << "of " << texts.size() << " texts";
  EXPECT_GT(tokens, std::string(c.name).ends_with("truncated") ? 2000u : 8000u);
}

// The ByteLevel pre-tokenizer the byte-level variants end with (or put between other steps).
std::string byte_level(bool add_prefix_space, bool use_regex) {
  return std::string(R"({"type":"ByteLevel","add_prefix_space":)") +
         (add_prefix_space ? "true" : "false") + R"(,"trim_offsets":true,"use_regex":)" +
         (use_regex ? "true" : "false") + "}";
}

INSTANTIATE_TEST_SUITE_P(
    RealFiles, HfTokenizerVsHf,
    ::testing::Values(
        // SentencePiece-style BPE: Replace normalizer, byte_fallback, <bos>, 6,415 added tokens.
        Case{"gemma3", "gemma3/tokenizer.json", {}, {}, true},
        // Byte-level BPE: Split with the llama3 regex (lookahead), ignore_merges.
        Case{"llama3", "llama3/tokenizer.json", {}, {}, true},
        // Byte-level BPE: NFC, the qwen regex (single digits), merges as pairs.
        Case{"qwen3", "qwen3/tokenizer.json", {}, {}, true},
        // GPT-2 / RoBERTa style on llama3's vocabulary: the ByteLevel pre-tokenizer's own regex
        // with a prefix space, RobertaProcessing's <s> ... </s>, merges applied to every word.
        Case{
            "roberta_style",
            "llama3/tokenizer.json",
            {{"pre_tokenizer",
              R"({"type":"ByteLevel","add_prefix_space":true,"trim_offsets":true,"use_regex":true})"},
             {"ignore_merges", "false"},
             {"post_processor",
              R"({"type":"RobertaProcessing","sep":["<|end_of_text|>",128001],)"
              R"("cls":["<|begin_of_text|>",128000],"trim_offsets":true,"add_prefix_space":true})"}}},
        // Template special tokens around qwen3's sequence, truncation from the file.
        Case{"qwen3_template_truncated",
             "qwen3/tokenizer.json",
             {{"post_processor",
               R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<|im_start|>",)"
               R"("type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":)"
               R"("<|im_end|>","type_id":0}}],"pair":[],"special_tokens":{"<|im_start|>":{"id":)"
               R"("<|im_start|>","ids":[151644],"tokens":["<|im_start|>"]},"<|im_end|>":{"id":)"
               R"("<|im_end|>","ids":[151645],"tokens":["<|im_end|>"]}}})"},
              {"truncation",
               R"({"direction":"Right","max_length":37,"strategy":"LongestFirst","stride":0})"}}},
        // StarCoder-style: every digit (Unicode Nd, Nl, No) a word of its own, then ByteLevel.
        Case{
            "llama3_individual_digits",
            "llama3/tokenizer.json",
            {{"pre_tokenizer",
              R"({"type":"Sequence","pretokenizers":[{"type":"Digits","individual_digits":true},)" +
                  byte_level(false, true) + "]}"}},
            {},
            true},
        // Falcon-style: Punctuation, ByteLevel, runs of digits kept together (Contiguous).
        Case{
            "llama3_punctuation_digits",
            "llama3/tokenizer.json",
            {{"pre_tokenizer",
              R"({"type":"Sequence","pretokenizers":[{"type":"Punctuation","behavior":"Isolated"},)" +
                  byte_level(false, true) +
                  ","
                  R"({"type":"Digits","individual_digits":false}]})"}},
            {},
            true},
        // Punctuation merged with what follows it and digit runs before the byte mapping (no
        // regex, a prefix space on each word).
        Case{
            "qwen3_punctuation_merged",
            "qwen3/tokenizer.json",
            {{"pre_tokenizer",
              R"({"type":"Sequence","pretokenizers":[{"type":"Punctuation","behavior":"MergedWithNext"},)"
              R"({"type":"Digits","individual_digits":false},)" +
                  byte_level(true, false) + "]}"}},
            {},
            true},
        // BertNormalizer and BertPreTokenizer around a BPE model.
        Case{"llama3_bert_steps",
             "llama3/tokenizer.json",
             {{"normalizer",
               R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,)"
               R"("strip_accents":null,"lowercase":false})"},
              {"pre_tokenizer",
               R"({"type":"Sequence","pretokenizers":[{"type":"BertPreTokenizer"},)" +
                   byte_level(false, false) + "]}"}},
             {},
             true},
        // Nmt, NFKD, StripAccents and Lowercase; UnicodeScripts before the byte mapping.
        Case{
            "qwen3_nmt_strip_accents_scripts",
            "qwen3/tokenizer.json",
            {{"normalizer", R"({"type":"Sequence","normalizers":[{"type":"Nmt"},{"type":"NFKD"},)"
                            R"({"type":"StripAccents"},{"type":"Lowercase"}]})"},
             {"pre_tokenizer", R"({"type":"Sequence","pretokenizers":[{"type":"UnicodeScripts"},)" +
                                   byte_level(false, true) + "]}"}},
            {},
            true},
        // The ByteLevel normalizer, then words cut before each Ġ (the space's byte character).
        Case{
            "llama3_byte_level_normalizer",
            "llama3/tokenizer.json",
            {{"normalizer", R"({"type":"ByteLevel"})"},
             {"pre_tokenizer",
              R"({"type":"Split","pattern":{"String":"\u0120"},"behavior":"MergedWithNext","invert":false})"}},
            {},
            true},
        // Words of at most 4 characters (FixedLength), then the byte mapping.
        Case{"llama3_fixed_length",
             "llama3/tokenizer.json",
             {{"pre_tokenizer", R"({"type":"Sequence","pretokenizers":[)"
                                R"({"type":"FixedLength","length":4},)" +
                                    byte_level(false, false) + "]}"}},
             {},
             true},
        // CharDelimiterSplit, then an inverted Split: letter runs with what follows them.
        Case{
            "llama3_delimiter_inverted_split",
            "llama3/tokenizer.json",
            {{"pre_tokenizer",
              R"({"type":"Sequence","pretokenizers":[{"type":"CharDelimiterSplit","delimiter":" "},)"
              R"({"type":"Split","pattern":{"Regex":"\\p{L}+"},"behavior":"MergedWithPrevious","invert":true},)" +
                  byte_level(false, false) + "]}"}},
            {},
            true},
        // single_word added tokens (with lstrip/rstrip, and normalized ones matched in the
        // normalised text) put before gemma3's own; ids from its vocabulary.
        Case{
            "gemma3_single_word",
            "gemma3/tokenizer.json",
            {},
            R"({"id":1437,"content":"the","single_word":true,"lstrip":false,"rstrip":false,"normalized":false,"special":false},)"
            R"({"id":1136,"content":"und","single_word":true,"lstrip":true,"rstrip":true,"normalized":false,"special":false},)"
            R"({"id":10956,"content":"日本","single_word":true,"lstrip":false,"rstrip":false,"normalized":false,"special":false},)"
            R"({"id":28223,"content":"über","single_word":true,"lstrip":false,"rstrip":false,"normalized":false,"special":false},)"
            R"({"id":726,"content":"--","single_word":true,"lstrip":false,"rstrip":false,"normalized":false,"special":false},)"
            R"({"id":617,"content":"ist","single_word":true,"lstrip":false,"rstrip":false,"normalized":true,"special":false},)"
            // Only in normalised text, where gemma3's spaces are ▁.
            R"({"id":569,"content":"\u2581de","single_word":false,"lstrip":false,"rstrip":false,"normalized":true,"special":false})",
            true}),
    [](const auto& info) { return std::string(info.param.name); });

class UnigramVsHf : public ::testing::TestWithParam<bool> {};

TEST_P(UnigramVsHf, SameIdsAsHuggingFace) {
  const bool byte_fallback = GetParam();
  TempDir dir;
  // Without byte fallback, the model's own precompiled nmt_nfkc map, as DeBERTa-v3's
  // tokenizer.json has; with it, HF's NFKC, Lowercase and Strip, and Metaspace's "first"
  // prepend scheme (a stripped start is no longer the input's start, so gets no ▁).
  std::string path = deberta_style_tokenizer(dir, byte_fallback, /*nfkc=*/byte_fallback);
  auto tokenizer = load_text_tokenizer(path);
  ASSERT_TRUE(tokenizer.is_ok()) << tokenizer.status().message();
  std::vector<std::string> texts = multilingual_paragraphs(10);
  for (const std::string& e : edge_cases()) texts.push_back(e);
  texts.push_back("``quoted'' and [MASK] [CLS]x[SEP] spaced     out");
  std::vector<std::vector<int64_t>> expected = hf_reference_ids(dir.path(), path, texts);
  ASSERT_EQ(expected.size(), texts.size());
  size_t mismatches = 0, unknown = 0, bytes = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<int64_t> ids;
    tokenizer.value()->encode(texts[i], ids);
    unknown += std::count(ids.begin(), ids.end(), 3);
    bytes += std::count_if(ids.begin(), ids.end(), [](int64_t id) { return id >= 5 && id < 261; });
    if (ids != expected[i] && ++mismatches <= 3) {
      ADD_FAILURE() << "text " << i << ": " << texts[i].substr(0, 300)
                    << "\nwinnow: " << ::testing::PrintToString(ids)
                    << "\nHF:     " << ::testing::PrintToString(expected[i]);
    }
  }
  EXPECT_EQ(mismatches, 0u) << "of " << texts.size() << " texts";
  // Trained on English and German only: the other scripts are unknown (or bytes).
  if (byte_fallback) {
    EXPECT_GT(bytes, 100u);
  } else {
    EXPECT_GT(unknown, 50u);
  }
}

INSTANTIATE_TEST_SUITE_P(ByteFallback, UnigramVsHf, ::testing::Bool());

// The character-class steps and normalizers around a Unigram model with Metaspace: a dropped
// first character (Nmt's and BertNormalizer's controls, StripAccents' leading mark) leaves the
// text no longer at the input's start, so Metaspace's "first" scheme adds no ▁ there, while
// what a normalizer puts before it (BertNormalizer's space before an ideograph, Prepend) does
// not move the start.
TEST(UnigramVariantsVsHf, SameIdsAsHuggingFace) {
  TempDir dir;
  const std::string base = read_file(deberta_style_tokenizer(dir, /*byte_fallback=*/true,
                                                             /*nfkc=*/true));
  const std::string metaspace_first =
      R"({"type":"Metaspace","replacement":"\u2581","prepend_scheme":"first","split":true})";
  const std::vector<std::tuple<std::string, std::string, std::string>> variants = {
      {"nmt",
       R"({"type":"Sequence","normalizers":[{"type":"Nmt"},{"type":"NFKC"},)"
       R"({"type":"Replace","pattern":{"Regex":" {2,}"},"content":" "}]})",
       metaspace_first},
      {"bert",
       R"({"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,)"
       R"("strip_accents":null,"lowercase":true})",
       R"({"type":"Sequence","pretokenizers":[{"type":"BertPreTokenizer"},)" + metaspace_first +
           "]}"},
      {"strip_accents_digits_punctuation",
       R"({"type":"Sequence","normalizers":[{"type":"NFKD"},{"type":"StripAccents"},)"
       R"({"type":"Lowercase"}]})",
       R"({"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},)"
       R"({"type":"Punctuation","behavior":"Contiguous"},)"
       R"({"type":"Digits","individual_digits":true},)" +
           metaspace_first + "]}"},
      // What Prepend puts before the first character maps to offset 0 too: the first word
      // after WhitespaceSplit drops it is still at the start.
      {"prepend",
       R"({"type":"Sequence","normalizers":[{"type":"Prepend","prepend":" "},{"type":"NFKC"}]})",
       R"({"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},)" + metaspace_first +
           "]}"},
      {"unicode_scripts", R"({"type":"NFKC"})",
       R"({"type":"Sequence","pretokenizers":[{"type":"UnicodeScripts"},)" + metaspace_first +
           "]}"},
  };
  std::vector<std::string> texts = multilingual_paragraphs(4);
  for (const std::string& e : edge_cases()) texts.push_back(e);
  for (const std::string& e : character_class_cases()) texts.push_back(e);
  texts.push_back("\xcc\x81leading mark");
  texts.push_back("\x01\x02");
  for (const auto& [name, normalizer, pre_tokenizer] : variants) {
    SCOPED_TRACE(name);
    std::string path = dir.file(name + ".json");
    write_file(path, replace_member(replace_member(base, "normalizer", normalizer), "pre_tokenizer",
                                    pre_tokenizer));
    auto tokenizer = load_text_tokenizer(path);
    ASSERT_TRUE(tokenizer.is_ok()) << tokenizer.status().message();
    std::vector<std::vector<int64_t>> expected = hf_reference_ids(dir.path(), path, texts);
    size_t tokens = 0;
    EXPECT_EQ(compare_with_hf(*tokenizer.value(), texts, expected, tokens), 0u)
        << "of " << texts.size() << " texts";
    EXPECT_GT(tokens, 3000u);
  }
}

// A model folder with only spm.model (and tokenizer_config.json naming [CLS] and [SEP]) runs
// through libsentencepiece: spm_encode's ids between [CLS] and [SEP].
TEST(TextTokenizer, SentencePieceFolder) {
  TempDir dir;
  std::string model = train_sentencepiece_model(dir, "unigram", 2000, kDebertaFlags);
  std::filesystem::create_directory(dir.file("folder"));
  std::filesystem::copy_file(model, dir.file("folder/spm.model"));
  write_file(dir.file("folder/tokenizer_config.json"),
             R"({"cls_token":"[CLS]","sep_token":{"content":"[SEP]"},"pad_token":"[PAD]"})");
  auto tokenizer = load_text_tokenizer(dir.file("folder"));
  ASSERT_TRUE(tokenizer.is_ok()) << tokenizer.status().message();
  std::vector<std::string> lines = text_lines("/usr/share/games/fortunes/de/anekdoten", 200);
  auto expected = spm_encode_ids(model, lines);
  ASSERT_EQ(expected.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<int64_t> want = {1};
    want.insert(want.end(), expected[i].begin(), expected[i].end());
    want.push_back(2);
    std::vector<int64_t> ids;
    tokenizer.value()->encode(lines[i], ids);
    ASSERT_EQ(ids, want) << lines[i];
    EXPECT_EQ(tokenizer.value()->count(lines[i]), want.size());
    ids.clear();
    tokenizer.value()->encode(lines[i], ids, 5);
    EXPECT_EQ(ids.size(), std::min<size_t>(5, want.size()));
    EXPECT_EQ(ids.back(), 2);
  }
  EXPECT_EQ(tokenizer.value()->pad_id(), 0);
  // Without tokenizer_config.json: BOS only, as Llama's and Gemma's tokenizers add it.
  std::filesystem::remove(dir.file("folder/tokenizer_config.json"));
  std::filesystem::create_directory(dir.file("bare"));
  std::filesystem::copy_file(model, dir.file("bare/tokenizer.model"));
  auto bare = load_text_tokenizer(dir.file("bare"));
  ASSERT_TRUE(bare.is_ok()) << bare.status().message();
  std::vector<int64_t> ids;
  bare.value()->encode(lines[0], ids);
  EXPECT_EQ(ids.front(), 1);
  EXPECT_EQ(ids.size(), expected[0].size() + 1);
}

TEST(HfTokenizer, UnsupportedFilesAreClearErrors) {
  for (
      const auto& [json, message] : std::vector<std::pair<std::string, std::string>>{
          {"not json", "not valid JSON"},
          {R"({"model":{"type":"WordLevel","vocab":{}}})", "model type 'WordLevel'"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":["a b"]}})",
           "merge 0 ('a' 'b') has a token not in the vocabulary"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"pre_tokenizer":{"type":"Morphemes"}})",
           "pre_tokenizer 'Morphemes' is not supported"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"normalizer":{"type":"Sequence","normalizers":[{"type":"NFC"},{"type":"Stem"}]}})",
           "normalizer 'Stem' is not supported"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"pre_tokenizer":{"type":"FixedLength","length":0}})",
           "length over 0"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"pre_tokenizer":{"type":"Punctuation","behavior":"Sideways"}})",
           "split behavior 'Sideways' is not supported"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"pre_tokenizer":{"type":"CharDelimiterSplit","delimiter":"ab"}})",
           "one delimiter character"},
          {R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"pre_tokenizer":{"type":"Split","pattern":{"Regex":"(a"},"behavior":"Isolated"}})",
           "does not compile"},
          {R"({"model":{"type":"Unigram","vocab":[["a",-1.0]]}})", "no unk_id"}}) {
    auto tokenizer = parse_hf_tokenizer(json, "dir/tokenizer.json");
    ASSERT_FALSE(tokenizer.is_ok()) << json;
    EXPECT_THAT(tokenizer.status().message(), HasSubstr("dir/tokenizer.json"));
    EXPECT_THAT(tokenizer.status().message(), HasSubstr(message));
  }
  auto missing = load_text_tokenizer("/nonexistent/tokenizer.json");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("/nonexistent/tokenizer.json"));
}

}  // namespace
}  // namespace winnow::testing
