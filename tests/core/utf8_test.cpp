#include "core/utf8.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace winnow {
namespace {

const std::string kReplacement = "\xef\xbf\xbd";

std::string sanitized(std::string_view bytes) {
  std::string out;
  append_sanitized_utf8(out, bytes);
  return out;
}

size_t count_replacements(std::string_view s) {
  size_t n = 0;
  for (size_t pos = s.find(kReplacement); pos != std::string_view::npos;
       pos = s.find(kReplacement, pos + 3)) {
    ++n;
  }
  return n;
}

TEST(Utf8, CountsCodePoints) {
  EXPECT_EQ(count_code_points(""), 0u);
  EXPECT_EQ(count_code_points("abc"), 3u);
  EXPECT_EQ(count_code_points("\xc3\xa9"), 1u);  // é
  EXPECT_EQ(count_code_points("caf\xc3\xa9"), 4u);
  EXPECT_EQ(count_code_points("\xe6\x97\xa5\xe6\x9c\xac"), 2u);  // 日本
  EXPECT_EQ(count_code_points("\xf0\x9f\x98\x80"), 1u);          // U+1F600
  EXPECT_EQ(count_code_points("a\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80z"), 5u);
  EXPECT_EQ(count_code_points(std::string("a\0b", 3)), 3u);
}

// The eight-bytes-at-a-time count against a byte-by-byte one, at every length and alignment
// (the tail and the word loop), on bytes biased towards lead and continuation bytes.
TEST(Utf8, CountsCodePointsAtAwkwardSizes) {
  std::mt19937_64 rng(3);
  static const unsigned char kPool[] = {'a', 0x80, 0xbf, 0xc3, 0xe6, 0xf0, 0x7f, 0xff, 0x40};
  std::string bytes(200, '\0');
  for (char& c : bytes) c = static_cast<char>(kPool[rng() % sizeof(kPool)]);
  for (size_t start = 0; start < 9; ++start) {
    for (size_t n = 0; start + n <= bytes.size(); ++n) {
      std::string_view s = std::string_view(bytes).substr(start, n);
      size_t expected = 0;
      for (char c : s) expected += !is_utf8_continuation(c);
      ASSERT_EQ(count_code_points(s), expected) << start << "+" << n;
    }
  }
}

TEST(Utf8, ContinuationBytes) {
  for (int b = 0; b < 256; ++b) {
    EXPECT_EQ(is_utf8_continuation(static_cast<char>(b)), b >= 0x80 && b <= 0xbf) << b;
  }
}

TEST(Utf8, FindsTheLastCodePoint) {
  EXPECT_EQ(last_code_point_start("a"), 0u);
  EXPECT_EQ(last_code_point_start("ab"), 1u);
  EXPECT_EQ(last_code_point_start("a\xc3\xa9"), 1u);              // é
  EXPECT_EQ(last_code_point_start("a\xe6\x97\xa5"), 1u);          // 日
  EXPECT_EQ(last_code_point_start("a\xf0\x9f\x98\x80"), 1u);      // U+1F600
  EXPECT_EQ(last_code_point_start("\xf0\x9f\x98\x80"), 0u);
  // Invalid input: never more than three continuation bytes back, never before the start.
  EXPECT_EQ(last_code_point_start("a\x80\x80\x80\x80\x80"), 2u);
  EXPECT_EQ(last_code_point_start("\x80\x80"), 0u);
}

TEST(Utf8, CutsPrefixesAtCodePointBoundaries) {
  std::string text = "ab\xc3\xa9\xe6\x97\xa5z";  // a b é 日 z
  EXPECT_EQ(utf8_prefix(text, 100), text);
  EXPECT_EQ(utf8_prefix(text, text.size()), text);
  EXPECT_EQ(utf8_prefix(text, 0), "");
  EXPECT_EQ(utf8_prefix(text, 2), "ab");
  EXPECT_EQ(utf8_prefix(text, 3), "ab");  // not half of é
  EXPECT_EQ(utf8_prefix(text, 4), "ab\xc3\xa9");
  EXPECT_EQ(utf8_prefix(text, 5), "ab\xc3\xa9");
  EXPECT_EQ(utf8_prefix(text, 6), "ab\xc3\xa9");
  EXPECT_EQ(utf8_prefix(text, 7), "ab\xc3\xa9\xe6\x97\xa5");
  for (size_t n = 0; n <= text.size(); ++n) EXPECT_TRUE(is_valid_utf8(utf8_prefix(text, n))) << n;
}

TEST(Utf8, AcceptsValidText) {
  for (std::string s : {std::string(""), std::string("plain ascii"), std::string("\x7f"),
                        std::string("a\0b", 3), std::string("\xc2\x80"),  // U+0080
                        std::string("\xdf\xbf"),                          // U+07FF
                        std::string("\xe0\xa0\x80"),                      // U+0800
                        std::string("\xed\x9f\xbf"),                      // U+D7FF
                        std::string("\xee\x80\x80"),                      // U+E000
                        std::string("\xef\xbf\xbf"),                      // U+FFFF
                        std::string("\xf0\x90\x80\x80"),                  // U+10000
                        std::string("\xf4\x8f\xbf\xbf")}) {               // U+10FFFF
    EXPECT_TRUE(is_valid_utf8(s)) << ::testing::PrintToString(s);
    EXPECT_EQ(sanitized(s), s);
  }
}

TEST(Utf8, RejectsInvalidSequences) {
  for (std::string s : {std::string("\x80"),  // lone continuation
                        std::string("\xbf"),
                        std::string("\xc0\xaf"),          // overlong '/'
                        std::string("\xc1\xbf"),          // overlong
                        std::string("\xe0\x80\xaf"),      // overlong, 3 bytes
                        std::string("\xf0\x80\x80\xaf"),  // overlong, 4 bytes
                        std::string("\xed\xa0\x80"),      // surrogate U+D800
                        std::string("\xed\xbf\xbf"),      // surrogate U+DFFF
                        std::string("\xf4\x90\x80\x80"),  // above U+10FFFF
                        std::string("\xf5\x80\x80\x80"), std::string("\xfe"), std::string("\xff"),
                        std::string("\xc3"),          // truncated
                        std::string("\xe2\x82"),      // truncated
                        std::string("\xf0\x9f\x98"),  // truncated
                        std::string("\xc3\x28"),      // bad continuation
                        std::string("\xe2\x28\xa1")}) {
    EXPECT_FALSE(is_valid_utf8(s)) << ::testing::PrintToString(s);
    EXPECT_FALSE(is_valid_utf8("ok " + s + " ok")) << ::testing::PrintToString(s);
  }
}

TEST(Utf8, SanitizingAppends) {
  std::string out = "prefix:";
  append_sanitized_utf8(out, "caf\xc3\xa9");
  EXPECT_EQ(out, "prefix:caf\xc3\xa9");
}

TEST(Utf8, SanitizesOverlongEncodings) {
  // Neither byte of an overlong 2-byte form can start a valid sequence: one U+FFFD each.
  EXPECT_EQ(sanitized("a\xc0\xaf"
                      "b"),
            "a" + kReplacement + kReplacement + "b");
  std::string s = sanitized("\xe0\x80\xaf|\xf0\x80\x80\xaf");
  EXPECT_TRUE(is_valid_utf8(s));
  EXPECT_EQ(s.find('\x80'), std::string::npos);
  EXPECT_NE(s.find('|'), std::string::npos);
  EXPECT_GE(count_replacements(s), 2u);
}

TEST(Utf8, SanitizesSurrogates) {
  // ED A0 80 (U+D800 encoded): ED cannot be followed by A0, so every byte is replaced.
  EXPECT_EQ(sanitized("x\xed\xa0\x80y"), "x" + kReplacement + kReplacement + kReplacement + "y");
  // The valid ED range (U+D000..U+D7FF) is kept.
  EXPECT_EQ(sanitized("\xed\x9f\xbf"), "\xed\x9f\xbf");
}

TEST(Utf8, SanitizesTruncatedSequences) {
  for (std::string bad :
       {std::string("\xc3"), std::string("\xe2\x82"), std::string("\xf0\x9f\x98")}) {
    SCOPED_TRACE(::testing::PrintToString(bad));
    // Cut short by the next character...
    std::string mid = sanitized("a" + bad + "b\xc3\xa9");
    EXPECT_TRUE(is_valid_utf8(mid));
    EXPECT_EQ(mid.substr(0, 1), "a");
    EXPECT_EQ(mid.substr(mid.size() - 3), "b\xc3\xa9");  // what follows is not swallowed
    EXPECT_GE(count_replacements(mid), 1u);
    EXPECT_LE(count_replacements(mid), bad.size());
    EXPECT_EQ(mid.size(), 1 + 3 * count_replacements(mid) + 3);
    // ...or by the end of the input (an excerpt cut in the middle of a character).
    std::string end = sanitized("ab" + bad);
    EXPECT_TRUE(is_valid_utf8(end));
    EXPECT_EQ(end.substr(0, 2), "ab");
    EXPECT_GE(count_replacements(end), 1u);
  }
}

TEST(Utf8, SanitizedRandomBytesAreValidAndKeepValidInput) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bytes;
    size_t n = rng() % 64;
    for (size_t i = 0; i < n; ++i) {
      // Bias towards the interesting lead and continuation bytes.
      static const unsigned char kPool[] = {'a',  0x00, 0x7f, 0x80, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0,
                                            0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x9f};
      bytes.push_back(static_cast<char>(rng() % 3 ? kPool[rng() % sizeof(kPool)] : rng()));
    }
    std::string out = sanitized(bytes);
    ASSERT_TRUE(is_valid_utf8(out)) << ::testing::PrintToString(bytes);
    if (is_valid_utf8(bytes)) {
      ASSERT_EQ(out, bytes);
    } else {
      ASSERT_GE(count_replacements(out), 1u);
    }
    // Idempotent: sanitized text is left alone.
    ASSERT_EQ(sanitized(out), out);
  }
}

}  // namespace
}  // namespace winnow
