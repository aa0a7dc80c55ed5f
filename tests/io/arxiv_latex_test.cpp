#include "io/arxiv_latex.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>

#include "core/json_text.h"
#include "core/utf8.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

// Pieces of LaTeX that exercise every rule: sectioning commands (complete, cut short, glued to
// a letter, the paragraph+subparagraph pair), comments (whole lines, after text, escaped),
// back matter, macros (both forms, redefined, used before letters, digits and punctuation,
// values outside printable ASCII), braces, brackets and non-ASCII text.
const char* const kPieces[] = {
    "\\section{Intro}", "\\section*{Star}", "\\section[short]{Long title}", "\\subsection{S}",
    "\\subsubsection*{T}", "\\chapter{C}", "\\part{P}", "\\paragraph{Para}",
    "\\subparagraph{Sub}", "\\sectionx{no}", "\\section{open", "\\section[", "\\paragraphs{x}",
    "% a comment line\n", "%\n", "text % trailing\n", "50\\% of them", "a%b", "x %\n",
    "\\appendix", "\\begin{thebibliography}{9}", "\\begin{REFERENCES}", "\\bibliography{refs}",
    "\\bibliography{", "\\newcommand{\\foo}{bar}\n", "\\newcommand*{\\R}{\\mathbb{R}}\n",
    "\\def\\baz {qux}\n", "\\def \\foo{redefined}\n", "\\newcommand{\\e}{\xc3\xa9}\n",
    "\\def\\tab{a\tb}\n", "\\newcommand{\\nl}{x}y}\n", "\\foo ", "\\foo1", "\\foobar",
    "\\R.", "\\baz\\baz ", "\\tab}", "\\e,", "{", "}", "[", "]", "\n", "\n\n", " ", "word",
    "caf\xc3\xa9", "\xce\xb1\xce\xb2", "$x^2$", "\\\\", "\\cite{k}", "\\label{l}"};

std::string random_file(std::mt19937& rng) {
  std::uniform_int_distribution<size_t> piece(0, std::size(kPieces) - 1);
  std::uniform_int_distribution<int> count(0, 40);
  std::string file;
  for (int i = count(rng); i > 0; --i) file += kPieces[piece(rng)];
  return file;
}

// Asks tests/io/arxiv_reference.py (NeMo's rules in Python's re) for the papers' texts and the
// stems' ids; its reply is left in `reply_path`.
void ask_python_reference(const std::vector<std::vector<std::string>>& papers,
                          const std::vector<std::string>& stems, const TempDir& dir,
                          const std::string& reply_path) {
  std::string request = "{\"papers\":[";
  for (size_t i = 0; i < papers.size(); ++i) {
    request += i ? ",[" : "[";
    for (size_t f = 0; f < papers[i].size(); ++f) {
      if (f) request += ",";
      append_json_string(request, papers[i][f]);
    }
    request += "]";
  }
  request += "],\"stems\":[";
  for (size_t i = 0; i < stems.size(); ++i) {
    if (i) request += ",";
    append_json_string(request, stems[i]);
  }
  request += "]}";
  write_file(dir.file("request.json"), request);
  std::string out;
  ASSERT_EQ(run_command("python3 " + kSource + "/tests/io/arxiv_reference.py < " +
                            dir.file("request.json") + " > " + reply_path,
                        &out),
            0)
      << out;
}

TEST(ArxivLatex, SameTextsAsNemosRulesInPython) {
  std::mt19937 rng(20261204);
  std::vector<std::vector<std::string>> papers;
  for (int i = 0; i < 600; ++i) {
    std::vector<std::string> files(1 + rng() % 3);
    for (std::string& f : files) f = random_file(rng);
    papers.push_back(std::move(files));
  }
  std::vector<std::string> stems = {"astro-ph0001001", "2301.00001", "hep-th9901001v2",
                                    "0704.0001",       "math.GT0309136", "x",
                                    "-1.2",            "abc",        ""};
  TempDir dir;
  ask_python_reference(papers, stems, dir, dir.file("reply.json"));
  simdjson::dom::parser parser;
  simdjson::dom::element reply = parser.load(dir.file("reply.json"));
  simdjson::dom::array texts = reply["texts"].get_array();
  ASSERT_EQ(texts.size(), papers.size());
  size_t index = 0, kept = 0, dropped = 0, macro_drops = 0;
  for (simdjson::dom::element expected : texts) {
    ArxivText got = arxiv_paper_text(papers[index]);
    if (expected.is_null()) {
      EXPECT_NE(got.outcome, ArxivTextOutcome::kText) << "paper " << index;
      ++dropped;
      macro_drops += got.outcome == ArxivTextOutcome::kMacroValue;
    } else {
      EXPECT_EQ(got.outcome, ArxivTextOutcome::kText) << "paper " << index;
      EXPECT_EQ(got.text, std::string(expected.get_string().value())) << "paper " << index;
      ++kept;
    }
    ++index;
  }
  // The corpus reaches both outcomes, and the drop for a macro value NeMo cannot use.
  EXPECT_GT(kept, 100u);
  EXPECT_GT(dropped, 50u);
  EXPECT_GT(macro_drops, 10u);
  size_t s = 0;
  for (simdjson::dom::element id : reply["ids"].get_array()) {
    EXPECT_EQ(arxiv_id_from_name(stems[s]), std::string(id.get_string().value())) << stems[s];
    ++s;
  }
}

// Real LaTeX and TeX from the machine's packages (automake's texinfo.tex, gdb's refcard...):
// each file alone and all of them as one paper, against the rules in Python's re.
TEST(ArxivLatex, RealTexFilesFromInstalledPackagesAsPython) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run_command("find /usr/share /usr/lib -xdev \\( -name '*.tex' -o -name '*.tex.gz' "
                        "\\) -size -2M 2>/dev/null | sort | head -20 > " +
                            dir.file("found.txt"),
                        &out),
            0);
  std::vector<std::string> files;
  for (const std::string& path : split_lines(read_file(dir.file("found.txt")))) {
    std::string text = path.ends_with(".gz") ? read_decompressed(path) : read_file(path);
    if (is_valid_utf8(text)) files.push_back(std::move(text));
  }
  if (files.empty()) GTEST_SKIP() << "no UTF-8 .tex files installed here";
  std::vector<std::vector<std::string>> papers;
  for (const std::string& f : files) papers.push_back({f});
  papers.push_back(files);
  ask_python_reference(papers, {}, dir, dir.file("reply.json"));
  simdjson::dom::parser parser;
  simdjson::dom::element reply = parser.load(dir.file("reply.json"));
  size_t index = 0;
  for (simdjson::dom::element expected : reply["texts"].get_array()) {
    ArxivText got = arxiv_paper_text(papers[index]);
    if (expected.is_null()) {
      EXPECT_NE(got.outcome, ArxivTextOutcome::kText) << "paper " << index;
    } else {
      EXPECT_EQ(got.text, std::string(expected.get_string().value())) << "paper " << index;
    }
    ++index;
  }
  EXPECT_EQ(index, papers.size());
}

TEST(ArxivLatex, ReadsFromTheFirstSectionToTheBibliographyWithMacrosExpanded) {
  ArxivText got = arxiv_paper_text(
      {"\\documentclass{article}\n\\newcommand{\\R}{\\mathbb{R}}\n\\begin{document}\n"
       "\\section{Intro}\nLet $x \\in \\R$. % why\n% gone\nMore.\n\\bibliography{refs}\nEnd\n"});
  ASSERT_EQ(got.outcome, ArxivTextOutcome::kText);
  EXPECT_EQ(got.text, "\\section{Intro}\nLet $x \\in \\mathbb{R}$.\nMore.\n");
  EXPECT_EQ(arxiv_paper_text({"no sections here"}).outcome, ArxivTextOutcome::kNoSection);
}

}  // namespace
}  // namespace winnow::testing
