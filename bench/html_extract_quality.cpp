// Extraction quality on pages whose main content is a known element: token-level precision
// and recall of html_extract's text against the text of the first element carrying
// role="main" (Sphinx: div.body[role=main]). Tokens are whitespace-separated words compared as
// multisets; figures are micro-averaged over pages (and the page-average is printed too).
//
//   html_extract_quality [--debug] PAGE.html...
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "text/html_document.h"
#include "text/html_extractor.h"
#include "text/unicode_space.h"

using namespace winnow;

namespace {

// Text of the first role="main" element, paragraphs apart.
class MainText final : public HtmlVisitor {
 public:
  std::string content;
  bool found = false;
  bool start(const HtmlElement& e) override {
    std::string_view tag = e.tag();
    if (tag == "script" || tag == "style" || tag == "template") return false;
    if (depth_ > 0) {
      ++depth_;
    } else if (!found) {
      auto role = e.attribute("role");
      if (role && *role == "main") {
        depth_ = 1;
        found = true;
      }
    }
    return true;
  }
  void end(const HtmlElement& e) override {
    if (depth_ > 0) --depth_;
    // Words never span a block boundary; inline tags (code, a, em) do not split words.
    static const std::set<std::string_view> kBlocks = {
        "p",  "div", "li", "pre", "h1", "h2", "h3",    "h4",         "h5", "h6",     "td",
        "th", "tr",  "dt", "dd",  "ul", "ol", "table", "blockquote", "br", "section"};
    if (depth_ > 0 && kBlocks.count(e.tag())) content += ' ';
  }
  void text(std::string_view t) override {
    if (depth_ > 0) content.append(t);
  }

 private:
  int depth_ = 0;
};

std::map<std::string, long> bag(const std::string& text) {
  std::map<std::string, long> out;
  size_t i = 0;
  while (i < text.size()) {
    size_t n;
    while (i < text.size() && (n = unicode_space_length(text, i)) != 0) i += n;
    size_t start = i;
    while (i < text.size() && unicode_space_length(text, i) == 0) ++i;
    if (i > start) ++out[text.substr(start, i - start)];
  }
  return out;
}

long total(const std::map<std::string, long>& b) {
  long n = 0;
  for (auto& [k, v] : b) n += v;
  return n;
}

long common(const std::map<std::string, long>& a, const std::map<std::string, long>& b) {
  long n = 0;
  for (auto& [k, v] : a) {
    auto it = b.find(k);
    if (it != b.end()) n += std::min(v, it->second);
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  bool debug = false;
  bool paragraphs = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--paragraphs") {
      paragraphs = true;
    } else if (a == "--debug") {
      debug = true;
    } else {
      files.push_back(a);
    }
  }
  auto table = StopWordTable::load(std::string(kDefaultStopWordsDir));
  if (!table.is_ok()) {
    std::fprintf(stderr, "%s\n", table.status().message().c_str());
    return 1;
  }
  if (paragraphs) {  // jusText's classes, paragraph by paragraph, for one page
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      HtmlDocument doc(ss.str());
      auto ps = justext_paragraphs(doc, 1000);
      justext_classify(ps, table->find("en"), JusTextOptions());
      const char* names[] = {"bad", "short", "neargood", "good"};
      for (const auto& p : ps) {
        std::printf("%-8s %-8s len=%-5zu links=%-4zu %s| %.90s\n",
                    names[static_cast<int>(p.context_free)], names[static_cast<int>(p.final_class)],
                    p.length, p.chars_in_links, p.heading ? "H" : " ", p.text.c_str());
      }
    }
    return 0;
  }
  struct Variant {
    const char* name;
    HtmlAlgorithm algorithm;
    bool code_in_context;
  };
  for (Variant v : {Variant{"justext", HtmlAlgorithm::kJusText, false},
                    Variant{"justext+code", HtmlAlgorithm::kJusText, true},
                    Variant{"plain", HtmlAlgorithm::kPlain, false}}) {
    HtmlAlgorithm algorithm = v.algorithm;
    HtmlExtractOptions options;
    options.algorithm = algorithm;
    options.justext.code_in_context = v.code_in_context;
    HtmlExtractor extractor(options, table.value());
    long tp = 0, extracted = 0, reference = 0, pages = 0;
    double p_sum = 0, r_sum = 0;
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string html = ss.str();
      MainText main_text;
      HtmlDocument doc(html);
      doc.walk(main_text, 100000);
      if (!main_text.found) continue;
      HtmlExtraction result = extractor.extract(html, "", false);
      auto ref = bag(main_text.content), got = bag(result.text);
      long c = common(got, ref), g = total(got), r = total(ref);
      if (r == 0) continue;
      tp += c;
      extracted += g;
      reference += r;
      ++pages;
      double p = g ? double(c) / g : 1.0, rc = double(c) / r;
      p_sum += p;
      r_sum += rc;
      if (debug) {
        std::printf("%s %s P=%.3f R=%.3f\n", v.name, file.c_str(), p, rc);
        if (algorithm == HtmlAlgorithm::kJusText && files.size() == 1) {
          std::printf("%s\n", result.text.c_str());
        }
      }
    }
    std::printf(
        "%-13s pages=%ld  precision=%.3f recall=%.3f (micro)  precision=%.3f recall=%.3f "
        "(page mean)\n",
        v.name, pages, extracted ? double(tp) / extracted : 0.0,
        reference ? double(tp) / reference : 0.0, pages ? p_sum / pages : 0.0,
        pages ? r_sum / pages : 0.0);
  }
  return 0;
}
