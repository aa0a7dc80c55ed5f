// The three HTML parsers behind html_extract on the same pages, on one thread:
// - the walk alone (parse + events to a visitor that only counts), MB/s of HTML per CPU second;
// - the whole extraction (charset, parse, jusText with CLD2), MB/s, per parser;
// - parity: how many pages give the same text as libxml2 (the parser lxml, jusText and so
//   NeMo Curator use), with jusText and with plain.
// The baseline in the same run is one memchr pass over the same bytes looking for '<' (what
// any HTML tokenizer must at least do).
//
// Usage: html_parsers_bench PAGE.html...   (bench/warc_extract.sh passes every HTML page of
// this Debian install)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench_support.h"
#include "text/html_document.h"
#include "text/html_extractor.h"

using namespace winnow;

namespace {

class CountingVisitor final : public HtmlVisitor {
 public:
  size_t elements = 0, text_bytes = 0;
  bool start(const HtmlElement&) override {
    ++elements;
    return true;
  }
  void end(const HtmlElement&) override {}
  void text(std::string_view t) override { text_bytes += t.size(); }
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> pages;
  size_t bytes = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    pages.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    bytes += pages.back().size();
  }
  if (pages.empty()) {
    std::fprintf(stderr, "usage: html_parsers_bench PAGE.html...\n");
    return 2;
  }
  auto table = StopWordTable::load(std::string(kDefaultStopWordsDir));
  if (!table.is_ok()) {
    std::fprintf(stderr, "%s\n", table.status().message().c_str());
    return 1;
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  std::printf("%zu pages, %.1f MB of HTML\n", pages.size(), mb);

  // Best of 3 for each timing: the machine may be shared.
  auto best_of_3 = [](auto&& run) {
    double best = 1e30;
    for (int round = 0; round < 3; ++round) {
      double t0 = bench::thread_cpu_seconds();
      run();
      best = std::min(best, bench::thread_cpu_seconds() - t0);
    }
    return best;
  };
  size_t found = 0;
  double floor_s = best_of_3([&] {
    for (const auto& p : pages) {
      const char* at = p.data();
      const char* end = p.data() + p.size();
      while ((at = static_cast<const char*>(std::memchr(at, '<', end - at))) != nullptr) {
        ++found;
        ++at;
      }
    }
  });
  std::printf("%-10s %12s %10s %14s %10s %16s %16s\n", "parser", "walk MB/s", "vs floor",
              "extract MB/s", "vs libxml2", "same justext", "same plain");
  std::printf("%-10s %12.1f %9.2fx\n", "memchr '<'", mb / floor_s, 1.0);

  std::vector<std::vector<std::string>> texts(2);  // [algorithm][page], libxml2's
  double libxml2_extract_s = 0;
  for (HtmlParser parser : {HtmlParser::kLibxml2, HtmlParser::kScanner, HtmlParser::kGumbo}) {
    CountingVisitor counter;
    double walk_s = best_of_3([&] {
      for (const auto& p : pages) HtmlDocument(p, 1000, parser).walk(counter, 1000);
    });
    size_t same[2] = {0, 0};
    double extract_s = 0;
    for (int algorithm = 0; algorithm < 2; ++algorithm) {
      HtmlExtractOptions options;
      options.parser = parser;
      options.algorithm = algorithm == 0 ? HtmlAlgorithm::kJusText : HtmlAlgorithm::kPlain;
      HtmlExtractor extractor(options, table.value());
      std::vector<std::string> out(pages.size());
      double s = best_of_3([&] {
        for (size_t i = 0; i < pages.size(); ++i)
          out[i] = extractor.extract(pages[i], "", false).text;
      });
      if (algorithm == 0) extract_s = s;
      if (parser == HtmlParser::kLibxml2) {
        texts[algorithm] = out;
        same[algorithm] = pages.size();
      } else {
        for (size_t i = 0; i < pages.size(); ++i) same[algorithm] += out[i] == texts[algorithm][i];
      }
    }
    if (parser == HtmlParser::kLibxml2) libxml2_extract_s = extract_s;
    std::printf("%-10s %12.1f %9.2fx %14.1f %9.2fx %10zu / %zu %10zu / %zu\n",
                std::string(html_parser_name(parser)).c_str(), mb / walk_s, floor_s / walk_s,
                mb / extract_s, libxml2_extract_s / extract_s, same[0], pages.size(), same[1],
                pages.size());
  }
  return found == 0;  // a page set with no markup is a mistake
}
