#include "text/charset.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(Charset, FromContentType) {
  EXPECT_EQ(charset_from_content_type("text/html; charset=ISO-8859-1"), "ISO-8859-1");
  EXPECT_EQ(charset_from_content_type("text/html;charset=\"utf-8\""), "utf-8");
  EXPECT_EQ(charset_from_content_type("text/html; Charset = 'Shift_JIS' ; x=1"), "Shift_JIS");
  EXPECT_EQ(charset_from_content_type("text/html"), "");
  EXPECT_EQ(charset_from_content_type(""), "");
}

TEST(Charset, FromMeta) {
  EXPECT_EQ(charset_from_meta("<html><head><meta charset=\"windows-1251\"></head>"),
            "windows-1251");
  EXPECT_EQ(charset_from_meta("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; "
                              "charset=euc-jp\">"),
            "euc-jp");
  EXPECT_EQ(charset_from_meta("<meta charset=utf-8/>"), "utf-8");
  // Descriptions that merely mention a charset are not declarations.
  EXPECT_EQ(charset_from_meta("<meta name=\"description\" content=\"the charset=koi8-r page\">"),
            "");
  // Only the start of the page is scanned.
  EXPECT_EQ(charset_from_meta(std::string(10000, ' ') + "<meta charset=\"koi8-r\">", 8192), "");
}

TEST(Charset, NormalizesLabelsTheWayBrowsersDo) {
  EXPECT_EQ(normalize_charset("ISO-8859-1"), "windows-1252");
  EXPECT_EQ(normalize_charset("US-ASCII"), "windows-1252");
  EXPECT_EQ(normalize_charset("UTF8"), "utf-8");
  EXPECT_EQ(normalize_charset("GB2312"), "gbk");
  EXPECT_EQ(normalize_charset("Shift_JIS"), "shift_jis");
  EXPECT_EQ(normalize_charset("koi8-r"), "koi8-r");
  EXPECT_EQ(normalize_charset("no-such-charset"), "");
  EXPECT_EQ(normalize_charset(""), "");
}

TEST(Charset, HeaderWinsOverMeta) {
  std::string latin1 = "<meta charset=\"utf-8\"><p>caf\xE9</p>";
  DecodedHtml d = decode_html(latin1, "text/html; charset=iso-8859-1");
  EXPECT_EQ(d.charset, "windows-1252");
  EXPECT_EQ(d.source, CharsetSource::kHeader);
  EXPECT_EQ(d.text, "<meta charset=\"utf-8\"><p>caf\xC3\xA9</p>");
}

// UTF-8 pages labelled Latin-1 are common; NeMo decodes them as UTF-8 too (it tries UTF-8
// first). 7-bit charsets look like ASCII, so pure ASCII still follows the label.
TEST(Charset, ValidUtf8WithNonAsciiWinsOverTheLabels) {
  std::string utf8 = "<meta charset=\"iso-8859-1\"><p>caf\xC3\xA9 \xE2\x80\x99</p>";
  DecodedHtml d = decode_html(utf8, "text/html; charset=iso-8859-1");
  EXPECT_EQ(d.charset, "utf-8");
  EXPECT_EQ(d.source, CharsetSource::kDetected);
  EXPECT_EQ(d.text, utf8);
  std::string jis = "<p>\x1B$B$3$s$K$A$O\x1B(B</p>";  // "konnichiwa" in ISO-2022-JP
  DecodedHtml j = decode_html(jis, "text/html; charset=iso-2022-jp");
  EXPECT_EQ(j.source, CharsetSource::kHeader);
  EXPECT_EQ(j.text, "<p>\xE3\x81\x93\xE3\x82\x93\xE3\x81\xAB\xE3\x81\xA1\xE3\x81\xAF</p>");
}

TEST(Charset, MetaWhenTheHeaderSaysNothing) {
  std::string cp1251 = "<meta charset=\"windows-1251\"><p>\xCF\xF0\xE8\xE2\xE5\xF2</p>";
  DecodedHtml d = decode_html(cp1251, "text/html");
  EXPECT_EQ(d.charset, "windows-1251");
  EXPECT_EQ(d.source, CharsetSource::kMeta);
  EXPECT_EQ(d.text, "<meta charset=\"windows-1251\"><p>Привет</p>");
  // 0x80 is the euro sign in windows-1252, which browsers use for iso-8859-1.
  d = decode_html("<meta http-equiv=content-type content=\"text/html; charset=iso-8859-1\">\x80",
                  "");
  EXPECT_EQ(d.text.substr(d.text.size() - 3), "\xE2\x82\xAC");
}

TEST(Charset, BomWinsOverEverything) {
  DecodedHtml d = decode_html("\xEF\xBB\xBFhi \xC3\xA9", "text/html; charset=iso-8859-1");
  EXPECT_EQ(d.charset, "utf-8");
  EXPECT_EQ(d.source, CharsetSource::kBom);
  EXPECT_EQ(d.text, "hi \xC3\xA9");
  d = decode_html(std::string("\xFF\xFEh\0i\0", 6), "");
  EXPECT_EQ(d.charset, "utf-16le");
  EXPECT_EQ(d.text, "hi");
}

TEST(Charset, DetectsWithoutDeclarations) {
  DecodedHtml d = decode_html("<p>d\xC3\xA9j\xC3\xA0 vu</p>", "");
  EXPECT_EQ(d.charset, "utf-8");
  EXPECT_EQ(d.source, CharsetSource::kDetected);
  // Russian in windows-1251 with no declaration: uchardet's job.
  std::string text;
  std::string sentence =
      "\xDD\xF2\xEE \xEF\xF0\xEE\xF1\xF2\xEE\xE9 \xF2\xE5\xEA\xF1\xF2 \xED\xE0 "
      "\xF0\xF3\xF1\xF1\xEA\xEE\xEC \xFF\xE7\xFB\xEA\xE5. ";
  for (int i = 0; i < 20; ++i) text += sentence;
  d = decode_html("<p>" + text + "</p>", "text/html");
  EXPECT_EQ(d.source, CharsetSource::kDetected);
  EXPECT_EQ(d.charset, "windows-1251");
  EXPECT_NE(d.text.find("Это простой текст на русском языке."), std::string::npos);
}

TEST(Charset, InvalidBytesBecomeReplacementCharacters) {
  DecodedHtml d = decode_html("ok \xFF\xFE\xFD end", "text/html; charset=utf-8");
  EXPECT_EQ(d.charset, "utf-8");
  EXPECT_EQ(d.text, "ok \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD end");
  // An unknown declared label falls through to detection.
  d = decode_html("plain ascii", "text/html; charset=x-nonsense");
  EXPECT_EQ(d.charset, "utf-8");
  EXPECT_EQ(d.text, "plain ascii");
}

TEST(Charset, ConvertsShiftJis) {
  std::string out;
  ASSERT_TRUE(convert_to_utf8("\x93\xfa\x96\x7b\x8c\xea", "shift_jis", out));
  EXPECT_EQ(out, "日本語");
  EXPECT_FALSE(convert_to_utf8("x", "no-such", out));
}

}  // namespace
}  // namespace winnow
