// The trafilatura-class extractor on hand-built pages: page furniture (navigation, footers,
// comment sections, link lists, cookie banners, sharing rows) goes; an article's paragraphs,
// headings, lists and code stay; the container ranks and fallbacks pick what the rules say.
#include "text/trafilatura.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <tuple>
#include <unordered_set>

#include "core/json_text.h"
#include "test_support.h"
#include "text/html_document.h"
#include "text/trafilatura_rules.h"

namespace winnow {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::string kProse1 =
    "The committee met on Tuesday to discuss the plans for the new library, which had been "
    "delayed for several months because of the funding problems that the city had with it.";
const std::string kProse2 =
    "After a long debate they agreed that the building would be finished by the end of the "
    "year, and that the old one would be turned into a museum for the history of the town.";
const std::string kProse3 =
    "The architects presented three designs, and the one with the large reading room and the "
    "garden on the roof was chosen by a clear majority of the members of the committee.";

TrafilaturaResult extract(const std::string& html, const TrafilaturaOptions& options = {},
                          HtmlParser parser = HtmlParser::kScanner) {
  HtmlDocument document(html, 1000, parser);
  return trafilatura_extract(trafilatura_page(document, 1000), options);
}

std::string links(int n, const std::string& word) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += "<li><a href=/" + std::to_string(i) + ">" + word + " " + std::to_string(i) + "</a></li>";
  }
  return out;
}

// A news page with every kind of furniture around one article.
std::string news_page() {
  return "<html><head><title>Town news</title><style>p{}</style></head><body>"
         "<div id=cookie-notice><p>We use cookies to improve your experience on this site. By "
         "continuing to browse you agree to our use of cookies and similar technologies.</p>"
         "<button>Accept</button></div>"
         "<header><div class=site-title>The Town Paper</div>"
         "<nav><ul>" + links(6, "Section") + "</ul></nav></header>"
         "<div class=main-menu><ul>" + links(5, "Topic") + "</ul></div>"
         "<article><h1>The new library</h1>"
         "<div class=share-buttons><a href=/f>Facebook</a> <a href=/t>Twitter</a> "
         "<a href=/m>Mail</a></div>"
         "<p>" + kProse1 + "</p><p>" + kProse2 + " See <a href=/plans>the plans</a>.</p>"
         "<h2>What comes next</h2>"
         "<ul><li>A reading room for two hundred people</li><li>A garden on the roof</li></ul>"
         "<p>" + kProse3 + "</p>"
         "<pre>opening = 2025-09-01</pre>"
         "<div class=related-posts><h3>Related</h3><ul>" + links(5, "Story") + "</ul></div>"
         "<section id=comments><h3>3 comments</h3><p>I think this is a great idea and I hope "
         "that the library will also have a good section for children and young readers.</p>"
         "</section></article>"
         "<aside><p>Advertisement: buy the best shoes in town at the shoe shop on the market "
         "square, open every day of the week.</p></aside>"
         "<footer><p>Copyright 2024 The Town Paper. All rights reserved.</p></footer>"
         "<script>track();</script></body></html>";
}

TEST(Trafilatura, KeepsTheArticleAndDropsEveryKindOfFurniture) {
  TrafilaturaOptions o;
  for (HtmlParser parser : {HtmlParser::kScanner, HtmlParser::kLibxml2, HtmlParser::kGumbo}) {
    SCOPED_TRACE(html_parser_name(parser));
    TrafilaturaResult r = extract(news_page(), o, parser);
    EXPECT_EQ(r.source, TrafilaturaSource::kCandidate);
    EXPECT_THAT(r.paragraphs,
                ElementsAre("The new library", kProse1, kProse2 + " See the plans.",
                            "What comes next", "A reading room for two hundred people",
                            "A garden on the roof", kProse3, "opening = 2025-09-01"));
  }
}

TEST(Trafilatura, SurerContainerNamesWinOverVaguerOnes) {
  std::string html = "<body><main><p>" + kProse3 + "</p><article><p>Teaser one.</p>"
                     "<div class=entry-content><p>" + kProse1 + "</p><p>" + kProse2 +
                     "</p></div></article></main></body>";
  TrafilaturaResult r = extract(html);
  EXPECT_EQ(r.source, TrafilaturaSource::kCandidate);
  EXPECT_THAT(r.paragraphs, ElementsAre(kProse1, kProse2));  // rank 1: the entry-content div
  // Without the article-body name, <article> (rank 2) comes before <main> (rank 5).
  std::string no_body_name = html;
  no_body_name.replace(no_body_name.find("entry-content"), 13, "entry-x");
  EXPECT_THAT(extract(no_body_name).paragraphs, ElementsAre("Teaser one.", kProse1, kProse2));
}

TEST(Trafilatura, LinkListsAndLinkTablesGoInlineLinksStay) {
  std::string table_links;
  for (int i = 0; i < 12; ++i) table_links += "<tr><td><a href=/" + std::to_string(i) +
                                              ">Archive page number " + std::to_string(i) +
                                              "</a></td></tr>";
  std::string html = "<body><div class=content><p>" + kProse1 + " Read <a href=/x>more about "
                     "it</a> here.</p><ul>" + links(8, "Tag") + "</ul><p><a href=/a>Next</a> "
                     "<a href=/b>Previous</a></p><table>" + table_links +
                     "</table><table><tr><th>Floor</th><th>Rooms</th></tr><tr><td>Ground</td>"
                     "<td>Reading room</td></tr></table><p>" + kProse2 + "</p></div></body>";
  EXPECT_THAT(extract(html).paragraphs,
              ElementsAre(kProse1 + " Read more about it here.", "Floor", "Rooms", "Ground",
                          "Reading room", kProse2));
}

TEST(Trafilatura, ShortResultsFallBackToTheWholePageThenTheBaseline) {
  // The only candidate holds one short block: the whole page is longer.
  std::string html = "<body><div id=content><p>Short intro.</p><p>Two.</p></div><div><p>" +
                     kProse1 + "</p><p>" + kProse2 + "</p></div></body>";
  TrafilaturaResult r = extract(html);
  EXPECT_EQ(r.source, TrafilaturaSource::kWholePage);
  EXPECT_THAT(r.paragraphs, ElementsAre("Short intro.", "Two.", kProse1, kProse2));
  // A small block of several elements around a link is furniture; the baseline still takes
  // its paragraphs when nothing else is left.
  TrafilaturaResult b = extract("<body><div><a href=/>Home</a><p>First short paragraph.</p>"
                                "<p>Second one.</p></div></body>");
  EXPECT_EQ(b.source, TrafilaturaSource::kBaseline);
  EXPECT_THAT(b.paragraphs, ElementsAre("First short paragraph.", "Second one."));
}

TEST(Trafilatura, FurnitureNamesThatWouldTakeNearlyEverythingAreIgnored) {
  // A theme that wraps the article in "content-sidebar-wrap": dropping it would leave nothing.
  std::string html = "<body><div class=content-sidebar-wrap><p>" + kProse1 + "</p><p>" +
                     kProse2 + "</p></div><div class=sidebar><p>Small widget text.</p></div>"
                     "</body>";
  EXPECT_THAT(extract(html).paragraphs, ElementsAre(kProse1, kProse2, "Small widget text."));
}

TEST(Trafilatura, TrailingHeadingsRepeatsAndSizeLimits) {
  std::string repeated = "<p>" + kProse1 + "</p>";  // 171 code points: checked
  std::string html = "<body><div class=post-content><h2>Title</h2>" + repeated + repeated +
                     repeated + repeated + "<p>Short.</p><p>Short.</p><p>Short.</p><p>Short.</p>"
                     "<h3>Read next</h3></div></body>";
  TrafilaturaOptions o;
  // Seen 0, 1 and 2 times before: kept; the fourth copy goes. Short ones are not checked.
  EXPECT_THAT(extract(html, o).paragraphs,
              ElementsAre("Title", kProse1, kProse1, kProse1, "Short.", "Short.", "Short.",
                          "Short."));
  o.max_repetitions = 0;
  EXPECT_THAT(extract(html, o).paragraphs,
              ElementsAre("Title", kProse1, "Short.", "Short.", "Short.", "Short."));
  o.max_tree_size = 8;  // nine blocks kept before the repetition check
  EXPECT_THAT(extract(html, o).paragraphs, IsEmpty());
  TrafilaturaOptions big;
  big.min_output_size = 10000;
  EXPECT_THAT(extract(html, big).paragraphs, IsEmpty());
}

TEST(Trafilatura, LooseDivTextCountsOnlyWhereParagraphsAreFew) {
  std::string loose = "<div>Posted in Town by the editor</div>";
  std::string few = "<body><div class=post-content>" + loose + "<p>" + kProse1 + "</p></div></body>";
  EXPECT_THAT(extract(few).paragraphs, ElementsAre("Posted in Town by the editor", kProse1));
  std::string many = "<body><div class=post-content>" + loose + "<p>" + kProse1 + "</p><p>" +
                     kProse2 + "</p><p>" + kProse3 + "</p><p>" + kProse1 + "!</p><p>" + kProse2 +
                     "!</p></div></body>";  // 5 x ~170 = ~860 characters >= 3 x 250
  EXPECT_THAT(extract(many).paragraphs,
              ElementsAre(kProse1, kProse2, kProse3, kProse1 + "!", kProse2 + "!"));
}

TEST(Trafilatura, NamesOfFurniture) {
  for (const char* name : {"main-nav", "nav", "cookie-banner", "cookiebanner", "ad-slot",
                           "social-icons", "comments-area", "site-footer", "breadcrumbs",
                           "entry share-row", "sidebar-left", "tags"}) {
    EXPECT_TRUE(names_boilerplate(name)) << name;
  }
  for (const char* name : {"canvas", "head", "menuselection", "load-more", "body",
                           "highlight-python3 notranslate", "section", "download", "chapter"}) {
    EXPECT_FALSE(names_boilerplate(name)) << name;
  }
}

TEST(Trafilatura, HiddenAndRemovedElementsGiveNoText) {
  std::string html = "<body><div class=post-content><p>" + kProse1 + "</p>"
                     "<p style='display: none'>Hidden paragraph text.</p>"
                     "<p aria-hidden=true>Also hidden.</p><div hidden>Hidden too.</div>"
                     "<form><label>Name</label><input value=x><p>" + kProse2 + "</p></form>"
                     "<noscript>Enable JavaScript to read this page.</noscript>"
                     "<span class=share-count>42 shares</span></div></body>";
  EXPECT_THAT(extract(html).paragraphs, ElementsAre(kProse1, kProse2));
}

TEST(Trafilatura, HostilePagesNeverCrash) {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += "<div class=a>";
  deep += "<p>" + kProse1 + "</p>";
  std::string huge_attribute =
      "<body><div class='" + std::string(5 << 20, 'n') + " nav'><p>" + kProse1 + "</p></div>";
  std::string links_deep;
  for (int i = 0; i < 50000; ++i) links_deep += "<a href=/>x<p>";
  std::vector<std::string> pages = {deep,  huge_attribute,  links_deep, "",
                                    "just text, no tags at all", "<p>unclosed <b>bold <a>link",
                                    "</div></p></body></html>", "<html><body></body></html>",
                                    std::string(100000, '<')};
  for (HtmlParser parser : {HtmlParser::kScanner, HtmlParser::kLibxml2, HtmlParser::kGumbo}) {
    SCOPED_TRACE(html_parser_name(parser));
    for (const std::string& page : pages) {
      TrafilaturaResult r = extract(page, {}, parser);
      for (const auto& p : r.paragraphs) EXPECT_FALSE(p.empty());
    }
    EXPECT_THAT(extract("just text, no tags at all", {}, parser).paragraphs,
                ElementsAre("just text, no tags at all"));
    EXPECT_THAT(extract(deep, {}, parser).paragraphs, ElementsAre(kProse1));
  }
}

// NeMo's stop-word filter against its rule run by Python (stopword_filter_reference.py): words
// as str.split() cuts them (Unicode white space included), compared as written, the share
// compared with >=. Fixed cases at the boundary, then random paragraphs.
TEST(Trafilatura, StopWordFilterMatchesNemosRuleInPython) {
  const std::vector<std::string> stop_list = {"the", "a", "of", "and", "to", "in", "is", "it"};
  std::unordered_set<std::string> set(stop_list.begin(), stop_list.end());
  StopWords stop_words(set);
  std::vector<std::vector<std::string>> cases = {
      {"the cat and the dog", "The Cat And The Dog", "", "   ", "cats dogs birds and",
       // 8 of 25 words: exactly 0.32, kept
       "the a of and to in is it w w w w w w w w w w w w w w w w w",
       "the\u00a0cat", "the\xe2\x80\x83" "cat", "the\xe3\x80\x80" "cat\tand\x0b" "dog\x1c" "fish"}};
  const std::vector<std::string> vocabulary = {"the", "The", "a", "of", "and", "cat", "dog",
                                               "it", "is,", "in", "tree", "\xc3\xa9t\xc3\xa9"};
  const std::vector<std::string> spaces = {" ", "  ", "\n", "\t", "\xc2\xa0", "\xe2\x80\x83"};
  std::mt19937 rng(35);
  for (int c = 0; c < 20; ++c) {
    std::vector<std::string> paragraphs;
    for (int p = 0; p < 10; ++p) {
      std::string text;
      int words = static_cast<int>(rng() % 12);
      for (int w = 0; w < words; ++w) {
        text += spaces[rng() % spaces.size()] + vocabulary[rng() % vocabulary.size()];
      }
      paragraphs.push_back(text);
    }
    cases.push_back(paragraphs);
  }
  testing::TempDir dir;
  std::string input;
  for (const auto& paragraphs : cases) {
    input += "{\"density\": 0.32, \"stop_words\": [";
    for (size_t i = 0; i < stop_list.size(); ++i) {
      if (i) input += ", ";
      append_json_string(input, stop_list[i]);
    }
    input += "], \"paragraphs\": [";
    for (size_t i = 0; i < paragraphs.size(); ++i) {
      if (i) input += ", ";
      append_json_string(input, paragraphs[i]);
    }
    input += "]}\n";
  }
  testing::write_file(dir.file("in.jsonl"), input);
  std::string output;
  ASSERT_EQ(testing::run_command("/usr/bin/python3 " + testing::kSource +
                                     "/tests/text/stopword_filter_reference.py < " +
                                     dir.file("in.jsonl"),
                                 &output),
            0)
      << output;
  std::vector<std::string> lines = testing::split_lines(output);
  ASSERT_EQ(lines.size(), cases.size());
  for (size_t c = 0; c < cases.size(); ++c) {
    std::string got;
    for (size_t i = 0; i < cases[c].size(); ++i) {
      std::vector<std::string> one = {cases[c][i]};
      keep_stopword_dense(one, &stop_words, "en", 0.32);
      if (!one.empty()) got += (got.empty() ? "" : " ") + std::to_string(i);
    }
    got += ";";
    EXPECT_EQ(got, lines[c]) << "case " << c;
  }
  // Unspaced languages, no list or a zero density: nothing is filtered.
  std::vector<std::string> any = {"cats dogs birds"};
  for (auto [list, language, density] :
       {std::tuple{&stop_words, "ja", 0.32}, std::tuple{(StopWords*)nullptr, "en", 0.32},
        std::tuple{&stop_words, "en", 0.0}}) {
    std::vector<std::string> kept = any;
    keep_stopword_dense(kept, list, language, density);
    EXPECT_EQ(kept, any);
  }
}

}  // namespace
}  // namespace winnow
