#include "text/mojibake.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "test_support.h"

namespace winnow {
namespace {

// What a program that took UTF-8 bytes for Windows-1252 shows: each byte becomes the
// Windows-1252 character (the five bytes it leaves undefined become C1 controls, as browsers
// and Python's latin-1 do), encoded again as UTF-8.
std::string mis_decode_as_cp1252(const std::string& utf8) {
  static const uint16_t k80[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                   0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
                                   0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                   0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  std::string out;
  for (unsigned char byte : utf8) {
    uint32_t cp = byte >= 0x80 && byte < 0xA0 ? k80[byte - 0x80] : byte;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

std::string repaired(const std::string& text) {
  std::string out = "untouched";
  return repair_mojibake(text, out) ? out : text;
}

TEST(Mojibake, RepairsCommonPairsSeenInTheWild) {
  EXPECT_EQ(repaired("CafÃ©"), "Café");
  EXPECT_EQ(repaired("donâ€™t"), "don’t");
  EXPECT_EQ(repaired("â€œquotedâ€\xc2\x9d and â€“ dashes â€” and â€¦"),
            "“quoted” and – dashes — and …");
  EXPECT_EQ(repaired("Ã¼ber die BrÃ¼cke, naÃ¯ve faÃ§ade, seÃ±or"),
            "über die Brücke, naïve façade, señor");
  EXPECT_EQ(repaired("ÐŸÑ€Ð¸Ð²ÐµÑ‚, Ð¼Ð¸Ñ€"), "Привет, мир");
  EXPECT_EQ(repaired("æ—¥æœ¬èªž"), "日本語");
  // After a Latin letter an ideograph is credible only with CJK mojibake elsewhere in the text.
  EXPECT_EQ(repaired("Debianã‚’ä½¿ã\xc2\x81†"), "Debianを使う");
  EXPECT_EQ(repaired("Price: 5 â‚¬ â„¢"), "Price: 5 € ™");
  EXPECT_EQ(repaired("smile ðŸ˜€"), "smile 😀");
  // Latin-1 rather than Windows-1252: the continuation bytes became C1 controls.
  EXPECT_EQ(repaired("don\xc3\xa2\xc2\x80\xc2\x99t"), "don’t");
  // Mis-decoded twice.
  EXPECT_EQ(repaired("CafÃƒÂ©"), "Café");
  EXPECT_EQ(count_mojibake("CafÃ©, donâ€™t"), 2u);
}

TEST(Mojibake, LeavesLegitimateTextAlone) {
  std::string out = "untouched";
  for (const char* text :
       {"Café, naïve, “quoted” – ok", "muß… und „Zitat“", "café…” said she", "É» and ß…",
        "日本語のテキスト", "plain ascii", "À la carte ©2024", "×½ ±°"}) {
    EXPECT_EQ(count_mojibake(text), 0u) << text;
    EXPECT_FALSE(repair_mojibake(text, out)) << text;
  }
  EXPECT_EQ(out, "untouched");
  // A truncated sequence ("Ã" at the end) is not counted and stays.
  EXPECT_EQ(repaired("CafÃ"), "CafÃ");
}

// Real multilingual text: clean, it is never changed; mis-decoded, it comes back exactly.
TEST(Mojibake, RoundTripsRealMultilingualText) {
  int files = 0;
  for (const char* lang : {"en", "de", "fr", "es", "it", "pt", "ja", "zh-cn"}) {
    std::string path = std::string("/usr/share/doc/debian-reference-") + lang +
                       "/docs/debian-reference." + lang + ".txt.gz";
    std::string text;
    try {
      text = testing::read_decompressed(path);
    } catch (const std::exception&) {
      continue;
    }
    ++files;
    text = text.substr(0, 300000);
    while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) {
      text.pop_back();  // do not cut a character in half
    }
    if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0) text.pop_back();
    std::string out;
    EXPECT_EQ(count_mojibake(text), 0u) << lang;
    EXPECT_FALSE(repair_mojibake(text, out)) << lang;
    std::string broken = mis_decode_as_cp1252(text);
    ASSERT_TRUE(repair_mojibake(broken, out)) << lang;
    EXPECT_TRUE(out == text) << lang;
  }
  ASSERT_GE(files, 4) << "debian-reference-* documentation is not installed";
}

}  // namespace
}  // namespace winnow
