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

// A documentation page: navigation and footer outside <div class=body>; inside it a heading
// with a permalink, prose, a code sample, prose dense with cross-reference links and a row of
// share links.
const std::string kCode =
    "<pre>for record in reader.records():\n    payload = decode(record.payload, charset)\n"
    "    writer.write(json.dumps({'url': record.url, 'text': payload}))</pre>";
const std::string kLinkedProse =
    "<p>Use <a href=/r>records()</a> with <a href=/d>decode()</a> and then call "
    "<a href=/w>write()</a> on the writer that you opened before the loop.</p>";

std::string docs_page() {
  return "<body><div class=nav><ul><li><a href=/>Home</a></li><li><a href=/doc>Docs</a></li>"
         "</ul></div><div class=body><h1>Reading records<a href=#r>\xC2\xB6</a></h1><p>" +
         kProse1 + "</p>" + kCode + kLinkedProse + "<p>" + kProse2 +
         "</p><p>Share: <a href=/t>Twitter</a> <a href=/f>Facebook</a></p></div>"
         "<div class=footer><p>Built with some generator, version four.</p></div></body>";
}

std::vector<JusTextParagraph> classify_with_container(const std::string& html,
                                                      const JusTextOptions& o,
                                                      uint32_t* container = nullptr) {
  HtmlDocument document(html);
  std::vector<JusTextElement> elements;
  auto ps = justext_paragraphs(document, 1000, &elements);
  justext_classify(ps, table().find("en"), o);
  uint32_t c = justext_keep_container(ps, elements, o);
  if (container) *container = c;
  return ps;
}

TEST(JusText, ContainerPassKeepsWhatJusTextLosesInsideMainContent) {
  // jusText alone: the permalinked heading, the code and the link-dense prose are lost, and
  // with them the shorter prose between two bad neighbours.
  EXPECT_THAT(good_texts(classify(docs_page())), ElementsAre(kProse1));
  JusTextOptions o;
  o.container = true;
  uint32_t container = 0;
  auto ps = classify_with_container(docs_page(), o, &container);
  EXPECT_NE(container, 0u);
  // Navigation, share links (link density 0.9) and the footer outside stay out.
  EXPECT_THAT(good_texts(ps),
              ElementsAre("Reading records\xC2\xB6", kProse1,
                          "for record in reader.records():\n"
                          "payload = decode(record.payload, charset)\n"
                          "writer.write(json.dumps({'url': record.url, 'text': payload}))",
                          "Use records() with decode() and then call write() on the writer that "
                          "you opened before the loop.",
                          kProse2));
  // A stricter link limit leaves the cross-referenced prose out (link density 0.25).
  o.container_max_link_density = 0.2;
  auto strict = classify_with_container(docs_page(), o);
  EXPECT_EQ(good_texts(strict).size(), 4u);
}

TEST(JusText, NoContainerWhenGoodTextIsSpreadOverThePage) {
  // Good text in two sibling sections: only <body> holds 80% of it, and <body> never counts.
  std::string html = "<body><div><p>" + kProse1 + "</p><pre>x = 1 + 2 + 3</pre></div><div><p>" +
                     kProse2 + kProse1 +
                     "</p><p>See <a href=/a>the other page</a>.</p></div></body>";
  JusTextOptions o;
  o.container = true;
  uint32_t container = 1;
  auto ps = classify_with_container(html, o, &container);
  EXPECT_EQ(container, 0u);
  EXPECT_EQ(good_texts(ps), good_texts(classify(html)));  // nothing changed
  EXPECT_THAT(good_texts(ps), ElementsAre(kProse1, "x = 1 + 2 + 3", kProse2 + kProse1));
  // Without any good text there is no container either.
  auto none =
      classify_with_container("<body><div><p><a href=/>Home</a></p></div></body>", o, &container);
  EXPECT_EQ(container, 0u);
  EXPECT_TRUE(good_texts(none).empty());
}

TEST(JusText, SelfClosedXhtmlAnchorIsNotALink) {
  // "<a id=x/>" is empty in XHTML and for lxml; gumbo nests the rest in it (HTML5 rules).
  auto ps = classify("<body><div><a id=\"s1\"/><p>" + kProse1 + "</p></div></body>");
  ASSERT_EQ(ps.size(), 1u);
  EXPECT_EQ(ps[0].chars_in_links, 0u);
  EXPECT_EQ(ps[0].final_class, JusTextClass::kGood);
  auto linked = classify("<body><p><a href=/x>" + kProse1 + "</a></p></body>");
  ASSERT_EQ(linked.size(), 1u);
  EXPECT_EQ(linked[0].chars_in_links, linked[0].length);
  // An unquoted value ending in a slash is not a self-closing tag.
  auto slash = classify("<body><p><a href=/>Home</a></p></body>");
  ASSERT_EQ(slash.size(), 1u);
  EXPECT_EQ(slash[0].chars_in_links, 4u);
}

}  // namespace
}  // namespace winnow
