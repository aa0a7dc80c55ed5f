#include "text/unicode_repair.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

std::string repair(const std::string& text, UnicodeRepairOptions options = {},
                   UnicodeRepairChanges* changes = nullptr) {
  std::string out = "untouched";
  UnicodeRepairChanges c = repair_unicode(text, options, out);
  if (changes) *changes = c;
  return c.any() ? out : text;
}

TEST(UnicodeRepair, CleanTextIsUnchanged) {
  UnicodeRepairChanges changes;
  std::string out = "untouched";
  for (const char* text :
       {"plain ascii\twith tab\nand newline", "Café déjà vu", "日本語", "Ελληνικά", ""}) {
    changes = repair_unicode(text, {}, out);
    EXPECT_FALSE(changes.any()) << text;
  }
  EXPECT_EQ(out, "untouched");
}

TEST(UnicodeRepair, ReplacesInvalidUtf8) {
  UnicodeRepairChanges changes;
  EXPECT_EQ(repair("ab\xff"
                   "c\xc3",
                   {}, &changes),
            "ab\xEF\xBF\xBD"
            "c\xEF\xBF\xBD");
  EXPECT_TRUE(changes.invalid_utf8);
  EXPECT_FALSE(changes.mojibake);
}

TEST(UnicodeRepair, RemovesControlsKeepingLines) {
  UnicodeRepairChanges changes;
  EXPECT_EQ(repair(std::string("a\x00"
                               "b\x07"
                               "c\x1b[0md\x7f",
                               11),
                   {}, &changes),
            "abc[0md");
  EXPECT_TRUE(changes.control_chars);
  EXPECT_EQ(repair("one\r\ntwo\rthree\ffour\vfive"), "one\ntwo\nthree\nfour\nfive");
  EXPECT_EQ(repair("\xEF\xBB\xBFhello \xC2\x80world\xC2\x85next"), "hello world\nnext");
  EXPECT_EQ(repair("tab\tand\nnewline stay"), "tab\tand\nnewline stay");
  UnicodeRepairOptions keep;
  keep.remove_control_chars = false;
  EXPECT_EQ(repair("a\x07"
                   "b",
                   keep),
            "a\x07"
            "b");
}

TEST(UnicodeRepair, NormalisesToNfcOrNfkc) {
  UnicodeRepairChanges changes;
  // e + combining acute -> é; Angstrom sign -> Å.
  EXPECT_EQ(repair("Cafe\xCC\x81 \xE2\x84\xAB", {}, &changes), "Café Å");
  EXPECT_TRUE(changes.normalized);
  UnicodeRepairOptions nfkc;
  nfkc.normalization = UnicodeNormalization::kNfkc;
  EXPECT_EQ(repair("ﬁle x² ½ Ｆｕｌｌ", nfkc), "file x2 1⁄2 Full");
  EXPECT_EQ(repair("ﬁle x²"), "ﬁle x²");  // NFC keeps compatibility characters
  UnicodeRepairOptions none;
  none.normalization = UnicodeNormalization::kNone;
  EXPECT_EQ(repair("Cafe\xCC\x81", none), "Cafe\xCC\x81");
}

TEST(UnicodeRepair, MojibakeBeforeControlRemoval) {
  // The C1 character U+009D is the last byte of "”" read as Latin-1: it must be repaired, not
  // removed as a control.
  UnicodeRepairChanges changes;
  EXPECT_EQ(repair("â€œquotedâ€\xC2\x9D\r\n", {}, &changes), "“quoted”\n");
  EXPECT_TRUE(changes.mojibake);
  EXPECT_TRUE(changes.control_chars);
  UnicodeRepairOptions off;
  off.fix_mojibake = false;
  EXPECT_EQ(repair("CafÃ©", off), "CafÃ©");
}

}  // namespace
}  // namespace winnow
