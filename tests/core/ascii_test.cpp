#include "core/ascii.h"

#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <string>
#include <vector>

namespace winnow {
namespace {

// Every byte against <cctype> in the C locale (winnow never calls setlocale), which the
// helpers replaced: the classes must agree byte for byte, bytes >= 0x80 included.
TEST(Ascii, ClassesAgreeWithCctypeInTheCLocale) {
  for (int b = 0; b < 256; ++b) {
    char c = static_cast<char>(b);
    SCOPED_TRACE(b);
    EXPECT_EQ(is_ascii_upper(c), std::isupper(b) != 0);
    EXPECT_EQ(is_ascii_alpha(c), std::isalpha(b) != 0);
    EXPECT_EQ(is_ascii_digit(c), std::isdigit(b) != 0);
    EXPECT_EQ(is_ascii_hex_digit(c), std::isxdigit(b) != 0);
    EXPECT_EQ(is_ascii_alnum(c), std::isalnum(b) != 0);
    EXPECT_EQ(ascii_lower(c), static_cast<char>(std::tolower(b)));
    EXPECT_EQ(ascii_upper(c), static_cast<char>(std::toupper(b)));
    // isspace also takes \v, which neither HTML nor JSON counts as white space.
    EXPECT_EQ(is_ascii_whitespace(c), std::isspace(b) != 0 && c != '\v');
    EXPECT_EQ(is_json_whitespace(c), std::isspace(b) != 0 && c != '\v' && c != '\f');
    EXPECT_EQ(is_ascii_whitespace(c), kAsciiWhitespace.find(c) != std::string_view::npos);
    EXPECT_EQ(is_json_whitespace(c), kJsonWhitespace.find(c) != std::string_view::npos);
  }
}

TEST(Ascii, LowerMatchesTheScalarRule) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  all += "Hello WORLD @[`{ ÀÉ";  // not a multiple of 16
  std::string lower;
  ascii_lower(all, lower);
  ASSERT_EQ(lower.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    char c = all[i];
    EXPECT_EQ(lower[i], (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c) << i;
  }
}

// The 16-byte path and the byte tail at every length and alignment, on random bytes.
TEST(Ascii, BulkLowerEqualsBytewiseLowerAtAwkwardSizes) {
  std::mt19937 rng(7);
  std::string text(300, '\0');
  for (char& c : text) c = static_cast<char>(rng());
  std::string out = "previous contents, longer than some of the inputs below";
  for (size_t start : {0, 1, 3, 15}) {
    for (size_t n = 0; start + n <= text.size(); n += (n < 40 ? 1 : 17)) {
      std::string_view s = std::string_view(text).substr(start, n);
      ascii_lower(s, out);
      std::string expected(s);
      for (char& c : expected) c = ascii_lower(c);
      ASSERT_EQ(out, expected) << start << "+" << n;
      ASSERT_EQ(ascii_lowered(s), expected);
    }
  }
}

TEST(Ascii, LoweringKeepsUtf8AndOffsets) {
  EXPECT_EQ(ascii_lowered("Ça VA, ÉTÉ 2024"), "Ça va, ÉtÉ 2024");  // É stays: not ASCII
  EXPECT_EQ(ascii_lowered("Content-Type"), "content-type");
  EXPECT_EQ(ascii_lowered(""), "");
}

// Only ASCII letters fold: 'É' (C3 89) and 'é' (C3 A9) differ, as do '@' and '`' or '[' and
// '{' (which differ by the same bit as 'A' and 'a').
TEST(Ascii, CaseInsensitiveCompares) {
  struct Case {
    std::string_view a, b;
    bool equal, ends_with;
  };
  for (const Case& c : std::vector<Case>{{"Content-Type", "content-TYPE", true, true},
                                         {"", "", true, true},
                                         {"Content-Type", "Content-Typ", false, false},
                                         {"\xc3\x89", "\xc3\xa9", false, false},
                                         {"@", "`", false, false},
                                         {"[", "{", false, false},
                                         {"PHOTO.JPG", ".jpg", false, true},
                                         {"x/CC-MAIN-1.warc.GZ", ".warc.gz", false, true},
                                         {"abc", "", false, true},
                                         {"jpg", ".jpg", false, false}}) {
    EXPECT_EQ(ascii_iequals(c.a, c.b), c.equal) << c.a << " / " << c.b;
    EXPECT_EQ(ascii_iends_with(c.a, c.b), c.ends_with) << c.a << " / " << c.b;
  }
}

TEST(Ascii, Trims) {
  struct Case {
    std::string_view in, chars, both, start, end;
  };
  for (const Case& c : std::vector<Case>{
           {"  \t\r\n\f text here \r\n", kAsciiWhitespace, "text here", "text here \r\n",
            "  \t\r\n\f text here"},
           {" \t\n", kAsciiWhitespace, "", "", ""},
           {"", kAsciiWhitespace, "", "", ""},
           // \v is not ASCII whitespace (WHATWG), nor is a no-break space (C2 A0).
           {"\vx\v", kAsciiWhitespace, "\vx\v", "\vx\v", "\vx\v"},
           {"\xc2\xa0x", kAsciiWhitespace, "\xc2\xa0x", "\xc2\xa0x", "\xc2\xa0x"},
           // Other sets: JSON's, and any bytes.
           {"\f{} \r", kJsonWhitespace, "\f{}", "\f{} \r", "\f{}"},
           {"//x//", "/", "x", "x//", "//x"},
       }) {
    SCOPED_TRACE(::testing::PrintToString(c.in));
    EXPECT_EQ(ascii_trim(c.in, c.chars), c.both);
    EXPECT_EQ(ascii_trim_start(c.in, c.chars), c.start);
    EXPECT_EQ(ascii_trim_end(c.in, c.chars), c.end);
  }
  // The result is a view into the argument.
  std::string_view s = "  x  ";
  EXPECT_EQ(ascii_trim(s).data(), s.data() + 2);
}

}  // namespace
}  // namespace winnow
