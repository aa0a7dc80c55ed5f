// libFuzzer target: charset detection and conversion, the three HTML parsers (scanner,
// libxml2, gumbo) and the three extraction algorithms on arbitrary bytes. The first byte picks
// the algorithm (bit 0 clear: jusText; set: plain, or trafilatura with bit 1), the declared
// charset and jusText's options (bit 7: the container pass with Snowball + frequency stop
// words); the input's length modulo 3 picks the parser.
#include <cstdint>
#include <string>

#include "core/utf8.h"
#include "text/html_extractor.h"

using namespace winnow;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const StopWordTable table = StopWordTable::load(std::string(kDefaultStopWordsDir)).value();
  static const StopWordTable both =
      StopWordTable::load(std::string(kDefaultStopWordsDir), StopWordSource::kBoth).value();
  if (size == 0) return 0;
  static const char* kContentTypes[] = {"",
                                        "text/html; charset=utf-8",
                                        "text/html; charset=iso-8859-1",
                                        "text/html; charset=shift_jis",
                                        "text/html; charset=utf-16",
                                        "text/html; charset=bogus",
                                        "text/html; charset=gb2312",
                                        "text/html; charset=koi8-r"};
  HtmlExtractOptions options;
  options.algorithm = !(data[0] & 1)  ? HtmlAlgorithm::kJusText
                      : (data[0] & 2) ? HtmlAlgorithm::kTrafilatura
                                      : HtmlAlgorithm::kPlain;
  options.justext.code_in_context = data[0] & 2;
  static const HtmlParser kParsers[] = {HtmlParser::kScanner, HtmlParser::kLibxml2,
                                        HtmlParser::kGumbo};
  options.parser = kParsers[size % 3];
  options.max_input_bytes = 1 << 16;
  options.max_depth = (data[0] & 4) ? 8 : 1000;
  options.justext.container = data[0] & 0x80;
  HtmlExtractor extractor(options, options.justext.container ? both : table);
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  bool is_utf8 = (data[0] & 8) && is_valid_utf8(bytes);
  HtmlExtraction result = extractor.extract(bytes, kContentTypes[(data[0] >> 4) & 7], is_utf8);
  if (!is_valid_utf8(result.text)) __builtin_trap();  // output is always UTF-8
  return 0;
}
