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

TEST(StopWords, LowercasesUnicode) {
  std::string out;
  append_lowercase_utf8(out, "ÀÉÎ Straße ΣΟΦΙΑ ABC \xFF");
  EXPECT_EQ(out, "àéî straße σοφια abc \xFF");
}

}  // namespace
}  // namespace winnow
