#include "text/stop_words.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(StopWords, ParsesLinguaModules) {
  auto words = parse_lingua_stopwords(
      "package X;\nsub getStopWords { qw( ignored ) }\nsub _stopwords {\n  return qw(\n"
      "    The and  ÜBER\n    i'm\n  );\n}\n");
  ASSERT_TRUE(words.is_ok());
  EXPECT_EQ(words->size(), 4u);
  EXPECT_TRUE(words->count("the"));
  EXPECT_TRUE(words->count("über"));
  EXPECT_TRUE(words->count("i'm"));
  EXPECT_FALSE(parse_lingua_stopwords("no list here").is_ok());
}

TEST(StopWords, LoadsDebiansSnowballLists) {
  auto table = StopWordTable::load(std::string(kDefaultStopWordsDir));
  ASSERT_TRUE(table.is_ok());
  EXPECT_EQ(table->languages(), 15u);
  ASSERT_NE(table->find("en"), nullptr);
  EXPECT_TRUE(table->find("en")->contains("the"));
  EXPECT_FALSE(table->find("en")->contains("library"));
  ASSERT_NE(table->find("de"), nullptr);
  EXPECT_TRUE(table->find("de")->contains("über"));
  ASSERT_NE(table->find("ru"), nullptr);
  EXPECT_TRUE(table->find("ru")->contains("и"));
  EXPECT_EQ(table->find("nb"), table->find("no"));
  EXPECT_EQ(table->find("ja"), nullptr);
  EXPECT_EQ(StopWordTable::load("/nonexistent")->languages(), 0u);
}

TEST(StopWords, FrequencyListsAreCompiledIn) {
  // Derived by scripts/make_stop_words: grammatical words rank first in every language.
  auto table = StopWordTable::load(std::string(kDefaultStopWordsDir), StopWordSource::kFrequency);
  ASSERT_TRUE(table.is_ok());
  EXPECT_EQ(table->languages(), 8u);  // en de fr es it pt nl ru
  for (auto [language, word] : {std::pair{"en", "the"},
                                {"de", "und"},
                                {"fr", "les"},
                                {"es", "que"},
                                {"it", "che"},
                                {"pt", "para"},
                                {"nl", "het"},
                                {"ru", "не"}}) {
    ASSERT_NE(table->find(language), nullptr) << language;
    EXPECT_TRUE(table->find(language)->contains(word)) << language << " " << word;
    EXPECT_EQ(table->find(language)->size(), 300u) << language;
  }
  EXPECT_EQ(table->find("fi"), nullptr);  // Snowball only
  EXPECT_EQ(frequency_stop_words("fi").size(), 0u);
  // Without the Snowball folder the frequency lists still load.
  EXPECT_EQ(StopWordTable::load("/nonexistent", StopWordSource::kFrequency)->languages(), 8u);
}

TEST(StopWords, BothIsTheUnionPerLanguage) {
  auto snowball = StopWordTable::load(std::string(kDefaultStopWordsDir)).value();
  auto both = StopWordTable::load(std::string(kDefaultStopWordsDir), StopWordSource::kBoth).value();
  EXPECT_EQ(both.languages(), 15u);  // nl, ru and the rest are in both sources
  const StopWords* en = both.find("en");
  ASSERT_NE(en, nullptr);
  EXPECT_TRUE(en->contains("ourselves"));  // Snowball's
  auto frequency = frequency_stop_words("en");
  for (const auto& w : frequency) EXPECT_TRUE(en->contains(w)) << w;
  EXPECT_GT(en->size(), snowball.find("en")->size());
  EXPECT_EQ(both.find("fi")->size(), snowball.find("fi")->size());
  StopWordSource source;
  EXPECT_TRUE(parse_stop_word_source("both", source));
  EXPECT_EQ(source, StopWordSource::kBoth);
  EXPECT_FALSE(parse_stop_word_source("wikipedia", source));
}

TEST(StopWords, LowercasesUnicode) {
  std::string out;
  append_lowercase_utf8(out, "ÀÉÎ Straße ΣΟΦΙΑ ABC \xFF");
  EXPECT_EQ(out, "àéî straße σοφια abc \xFF");
}

}  // namespace
}  // namespace winnow
