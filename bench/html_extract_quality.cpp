// Extraction quality on pages whose main content is a known element: token-level precision
// and recall of html_extract's text against the text of the first element carrying
// ATTR="VALUE" (by default role="main": Sphinx's div.body[role=main]; DocBook chapters:
// class="chapter"), less the elements matching --exclude (say, class="toc"). Tokens are
// whitespace-separated words compared as multisets; figures are micro-averaged over pages
// (and the page-average is printed too). One line per variant (algorithm and options): jusText
// and the trafilatura-class extractor side by side, each with its extraction speed (MB of HTML
// per CPU-second of HtmlExtractor::extract on one thread; the reference's parse not counted).
//
//   html_extract_quality [--main ATTR=VALUE] [--exclude ATTR=VALUE] [--debug]
//                        [--paragraphs] [--parser libxml2|scanner|gumbo] [--only NAME_PART]
//                        PAGE.html...
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/utf8.h"
#include "text/html_document.h"
#include "text/html_extractor.h"
#include "text/unicode_space.h"

using namespace winnow;

namespace {

struct Selector {
  std::string attribute, value;
  bool matches(const HtmlElement& e) const {
    if (attribute.empty()) return false;
    auto v = e.attribute(attribute);
    if (!v) return false;
    if (attribute != "class") return *v == value;
    std::istringstream classes{std::string(*v)};
    std::string c;
    while (classes >> c) {
      if (c == value) return true;
    }
    return false;
  }
};

Selector parse_selector(const std::string& s) {
  size_t eq = s.find('=');
  if (eq == std::string::npos) return {s, ""};
  return {s.substr(0, eq), s.substr(eq + 1)};
}

// Text of the first element `main` selects, less what `exclude` selects, paragraphs apart.
class MainText final : public HtmlVisitor {
 public:
  MainText(Selector main, Selector exclude)
      : main_(std::move(main)), exclude_(std::move(exclude)) {}
  std::string content;
  bool found = false;
  bool start(const HtmlElement& e) override {
    std::string_view tag = e.tag();
    if (tag == "script" || tag == "style" || tag == "template") return false;
    if (depth_ > 0) {
      if (exclude_.matches(e)) return false;
      ++depth_;
      if (tag == "a" && !e.self_closing()) ++links_open_;
    } else if (!found) {
      if (main_.matches(e)) {
        depth_ = 1;
        found = true;
      }
    }
    return true;
  }
  void end(const HtmlElement& e) override {
    if (depth_ > 0 && e.tag() == "a" && !e.self_closing() && links_open_ > 0) --links_open_;
    if (depth_ > 0) --depth_;
    // Words never span a block boundary; inline tags (code, a, em) do not split words.
    static const std::set<std::string_view> kBlocks = {
        "p",  "div", "li", "pre", "h1", "h2", "h3",    "h4",         "h5", "h6",     "td",
        "th", "tr",  "dt", "dd",  "ul", "ol", "table", "blockquote", "br", "section"};
    if (depth_ > 0 && kBlocks.count(e.tag())) content += ' ';
  }
  void text(std::string_view t) override {
    if (depth_ == 0) return;
    content.append(t);
    size_t chars = count_code_points(t);
    chars_ += chars;
    if (links_open_ > 0) link_chars_ += chars;
  }
  // Share of the element's text inside links: an index or a table of contents has most of it.
  double link_share() const { return chars_ ? double(link_chars_) / double(chars_) : 0.0; }

 private:
  Selector main_, exclude_;
  int depth_ = 0;
  int links_open_ = 0;
  size_t chars_ = 0, link_chars_ = 0;
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
  Selector main_selector{"role", "main"}, exclude;
  HtmlParser parser = HtmlExtractOptions().parser;  // the extraction's; the reference is gumbo's
  std::vector<std::string> files;
  std::string only;  // run only the variants whose name holds this
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--paragraphs") {
      paragraphs = true;
    } else if (a == "--debug") {
      debug = true;
    } else if (a == "--main" && i + 1 < argc) {
      main_selector = parse_selector(argv[++i]);
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (a == "--exclude" && i + 1 < argc) {
      exclude = parse_selector(argv[++i]);
    } else if (a == "--parser" && i + 1 < argc) {
      auto p = parse_html_parser_name(argv[++i]);
      if (!p) {
        std::fprintf(stderr, "--parser: libxml2, scanner or gumbo\n");
        return 2;
      }
      parser = *p;
    } else {
      files.push_back(a);
    }
  }
  std::map<StopWordSource, StopWordTable> tables;
  for (StopWordSource source :
       {StopWordSource::kSnowball, StopWordSource::kFrequency, StopWordSource::kBoth}) {
    auto table = StopWordTable::load(std::string(kDefaultStopWordsDir), source);
    if (!table.is_ok()) {
      std::fprintf(stderr, "%s\n", table.status().message().c_str());
      return 1;
    }
    tables.emplace(source, std::move(table).value());
  }
  if (paragraphs) {  // jusText's classes, paragraph by paragraph, for one page (both + container)
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      HtmlDocument doc(ss.str());
      std::vector<JusTextElement> elements;
      auto ps = justext_paragraphs(doc, 1000, &elements);
      JusTextOptions o;
      justext_classify(ps, tables.at(StopWordSource::kBoth).find("en"), o);
      std::vector<JusTextClass> before;
      for (const auto& p : ps) before.push_back(p.final_class);
      justext_keep_container(ps, elements, o);
      const char* names[] = {"bad", "short", "neargood", "good"};
      for (size_t i = 0; i < ps.size(); ++i) {
        const auto& p = ps[i];
        std::printf("%-8s %-8s %-4s len=%-5zu links=%-4zu %s| %.90s\n",
                    names[static_cast<int>(p.context_free)], names[static_cast<int>(before[i])],
                    before[i] != p.final_class ? "+box" : "", p.length, p.chars_in_links,
                    p.heading ? "H" : " ", p.text.c_str());
      }
    }
    return 0;
  }
  struct Variant {
    const char* name;
    HtmlAlgorithm algorithm;
    StopWordSource stop_words;
    bool code_in_context;
    bool container;
    double stopword_density = 0.32;  // trafilatura: NeMo's filter after extraction
  };
  using S = StopWordSource;
  const HtmlAlgorithm J = HtmlAlgorithm::kJusText;
  const HtmlAlgorithm T = HtmlAlgorithm::kTrafilatura;
  for (Variant v : {Variant{"justext (NeMo)", J, S::kSnowball, false, false},
                    Variant{"justext freq", J, S::kFrequency, false, false},
                    Variant{"justext both", J, S::kBoth, false, false},
                    Variant{"justext code", J, S::kSnowball, true, false},
                    Variant{"justext box", J, S::kSnowball, false, true},
                    Variant{"justext both+box", J, S::kBoth, false, true},
                    Variant{"justext both+code+box", J, S::kBoth, true, true},
                    Variant{"trafilatura (NeMo)", T, S::kSnowball, false, false, 0.32},
                    Variant{"trafilatura both", T, S::kBoth, false, false, 0.32},
                    Variant{"trafilatura no filter", T, S::kSnowball, false, false, 0.0},
                    Variant{"plain", HtmlAlgorithm::kPlain, S::kSnowball, false, false}}) {
    if (std::string(v.name).find(only) == std::string::npos) continue;
    HtmlAlgorithm algorithm = v.algorithm;
    HtmlExtractOptions options;
    options.algorithm = algorithm;
    options.parser = parser;
    options.justext.code_in_context = v.code_in_context;
    options.justext.container = v.container;
    options.trafilatura.required_stopword_density = v.stopword_density;
    HtmlExtractor extractor(options, tables.at(v.stop_words));
    long tp = 0, extracted = 0, reference = 0, pages = 0;
    // The same over content pages: those whose main element is not mostly links (indexes and
    // tables of contents are navigation even where a site puts them in its main element).
    long ctp = 0, cextracted = 0, creference = 0, cpages = 0;
    double p_sum = 0, r_sum = 0;
    // Extraction speed: CPU time of extract() alone (decode, parse, extract), one thread.
    std::clock_t cpu_ticks = 0;
    size_t html_bytes = 0;
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string html = ss.str();
      MainText main_text(main_selector, exclude);
      HtmlDocument doc(html);
      doc.walk(main_text, 100000);
      if (!main_text.found) continue;
      std::clock_t before = std::clock();
      HtmlExtraction result = extractor.extract(html, "", false);
      cpu_ticks += std::clock() - before;
      html_bytes += html.size();
      auto ref = bag(main_text.content), got = bag(result.text);
      long c = common(got, ref), g = total(got), r = total(ref);
      if (r == 0) continue;
      tp += c;
      extracted += g;
      reference += r;
      ++pages;
      bool link_list = main_text.link_share() >= 0.5;
      if (!link_list) {
        ctp += c;
        cextracted += g;
        creference += r;
        ++cpages;
      }
      double p = g ? double(c) / g : 1.0, rc = double(c) / r;
      p_sum += p;
      r_sum += rc;
      if (debug) {
        std::printf("%s %s P=%.3f R=%.3f ref=%ld got=%ld%s\n", v.name, file.c_str(), p, rc, r, g,
                    link_list ? " link-list" : "");
        if (algorithm != HtmlAlgorithm::kPlain && files.size() == 1) {
          std::printf("%s\n", result.text.c_str());
        }
      }
    }
    std::printf(
        "%-22s pages=%ld  P=%.3f R=%.3f (micro)  P=%.3f R=%.3f (page mean)  "
        "content pages=%ld P=%.3f R=%.3f (micro)  %.1f MB/CPU-s\n",
        v.name, pages, extracted ? double(tp) / extracted : 0.0,
        reference ? double(tp) / reference : 0.0, pages ? p_sum / pages : 0.0,
        pages ? r_sum / pages : 0.0, cpages, cextracted ? double(ctp) / cextracted : 0.0,
        creference ? double(ctp) / creference : 0.0,
        cpu_ticks ? html_bytes / 1e6 / (double(cpu_ticks) / CLOCKS_PER_SEC) : 0.0);
    std::fflush(stdout);
  }
  return 0;
}
