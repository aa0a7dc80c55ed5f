#include "text/justext.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace winnow {
namespace {

using ::testing::ElementsAre;

const StopWordTable& table() {
  static StopWordTable t = StopWordTable::load(std::string(kDefaultStopWordsDir)).value();
  return t;
}

std::vector<JusTextParagraph> classify(const std::string& html, const JusTextOptions& o = {}) {
  HtmlDocument document(html);
  auto paragraphs = justext_paragraphs(document, 1000);
  justext_classify(paragraphs, table().find("en"), o);
  return paragraphs;
}

std::vector<std::string> good_texts(const std::vector<JusTextParagraph>& ps) {
  std::vector<std::string> out;
  for (const auto& p : ps) {
    if (p.final_class == JusTextClass::kGood) out.push_back(p.text);
  }
  return out;
}

const std::string kProse1 =
    "The committee met on Tuesday to discuss the plans for the new library, which had been "
    "delayed for several months because of the funding problems that the city had with it. "
    "Most of the members said that they were happy with the new design of the building.";
const std::string kProse2 =
    "After a long debate they agreed that the building would be finished by the end of the "
    "year, and that the old one would be turned into a museum for the history of the town.";

TEST(JusText, SplitsParagraphsAtBlockTagsAndNormalisesWhitespace) {
  auto ps = classify(
      "<html><head><title>T</title><script>var x;</script></head><body>"
      "<div>one <b>two</b>\n  three</div><p>four&amp;five&nbsp;six</p>"
      "<style>p{}</style>text<br>after br<br><br>new para</body></html>");
  std::vector<std::string> texts;
  for (const auto& p : ps) texts.push_back(p.text);
  EXPECT_THAT(texts, ElementsAre("one two\nthree", "four&five six", "text after br", "new para"));
}

TEST(JusText, KeepsProseAndDropsBoilerplate) {
  std::string html =
      "<body><ul><li><a href=/>Home</a></li><li><a href=/news>News</a></li></ul>"
      "<h1>The new library</h1><p>" +
      kProse1 + "</p><p>Short line.</p><p>" + kProse2 +
      "</p><div><a href=/a>Related article one</a> | <a href=/b>Related article two</a></div>"
      "<p>Copyright \xC2\xA9 2024 The Town Paper, all rights reserved by the town.</p>"
      "<select><option>Choose the option that you want to see on this page now</option>"
      "</select></body>";
  auto ps = classify(html);
  EXPECT_THAT(good_texts(ps), ElementsAre("The new library", kProse1, "Short line.", kProse2));
  // The context-free classes before revision.
  for (const auto& p : ps) {
    if (p.text == "Home") {
      EXPECT_EQ(p.context_free, JusTextClass::kBad);  // link only
    } else if (p.text == "Short line.") {
      EXPECT_EQ(p.context_free, JusTextClass::kShort);
    } else if (p.text == kProse1) {
      EXPECT_EQ(p.context_free, JusTextClass::kGood);  // over 200 characters
    } else if (p.text == kProse2) {
      EXPECT_EQ(p.context_free, JusTextClass::kNearGood);  // up to 200
    } else if (p.text == "The new library") {
      EXPECT_TRUE(p.heading);
    }
  }
}

TEST(JusText, ShortTextBetweenBoilerplateIsDropped) {
  auto ps = classify(
      "<body><p><a href=x>Login</a></p><p>Tiny note.</p><p><a href=y>Help</a>"
      "</p></body>");
  EXPECT_TRUE(good_texts(ps).empty());
}

TEST(JusText, LongLowStopwordTextIsBadButCodeInContextIsKept) {
  std::string code =
      "<pre>for x in range(10):\n    print(x * x, sorted(list_of_values))\n"
      "    result.append(compute(x, y, z))</pre>";
  std::string html = "<body><p>" + kProse1 + "</p>" + code + "<p>" + kProse2 + "</p></body>";
  // The code is bad; the short-ish prose after it then has two bad neighbours.
  auto plain = classify(html);
  EXPECT_THAT(good_texts(plain), ElementsAre(kProse1));
  JusTextOptions o;
  o.code_in_context = true;
  auto with_code = classify(html, o);
  ASSERT_EQ(good_texts(with_code).size(), 3u);
  EXPECT_EQ(good_texts(with_code)[1],
            "for x in range(10):\nprint(x * x, sorted(list_of_values))\n"
            "result.append(compute(x, y, z))");
}

TEST(JusText, WordsAcrossInlineTagsStayApart) {
  auto ps = classify("<body><pre><span>import</span> <span>json</span></pre></body>");
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].text, "import json");
}

TEST(JusText, WithoutStopWordsLengthDecides) {
  HtmlDocument document("<body><p>" + std::string(250, 'x') + " tail</p><p>" +
                        std::string(100, 'y') + "</p></body>");
  auto ps = justext_paragraphs(document, 1000);
  justext_classify(ps, nullptr, JusTextOptions());
  EXPECT_EQ(ps[0].context_free, JusTextClass::kGood);
  EXPECT_EQ(ps[1].context_free, JusTextClass::kNearGood);
}

TEST(JusText, DeepNestingIsWalkedWithoutRecursion) {
  std::string html;
  for (int i = 0; i < 200000; ++i) html += "<div>";
  html += kProse1;
  auto ps = classify(html);
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].text, kProse1);
}

}  // namespace
}  // namespace winnow
