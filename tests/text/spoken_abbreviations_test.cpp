// spoken_abbreviation: entries of NeMo's English whitelist (data/whitelist/tts.tsv, symbol.tsv)
// and its rule for capitals with dots, checked by hand against those files; what it leaves.
#include "text/spoken_abbreviations.h"

#include <gtest/gtest.h>

namespace winnow::testing {
namespace {

TEST(SpokenAbbreviations, NemosWhitelistEntries) {
  EXPECT_EQ(spoken_abbreviation("Dr."), "doctor");
  EXPECT_EQ(spoken_abbreviation("Mrs."), "misses");
  EXPECT_EQ(spoken_abbreviation("Mr."), "mister");
  EXPECT_EQ(spoken_abbreviation("e.g."), "for example");
  EXPECT_EQ(spoken_abbreviation("vs"), "versus");
  EXPECT_EQ(spoken_abbreviation("etc."), "etcetera.");
  EXPECT_EQ(spoken_abbreviation("U.S."), "US");
  EXPECT_EQ(spoken_abbreviation("a.m."), "AM");
  EXPECT_EQ(spoken_abbreviation("&"), "and");
  EXPECT_EQ(spoken_abbreviation("%"), "percent");
  EXPECT_EQ(spoken_abbreviation("$"), "dollar");
  EXPECT_EQ(spoken_abbreviation("\u00b0"), "degree");
}

TEST(SpokenAbbreviations, CapitalsWithDotsAreOneWord) {
  EXPECT_EQ(spoken_abbreviation("U.S.A."), "USA");
  EXPECT_EQ(spoken_abbreviation("U.S.A"), "USA");
  EXPECT_EQ(spoken_abbreviation("N.A.S.A."), "NASA");
  EXPECT_EQ(spoken_abbreviation("A.B"), "");  // two letters: not NeMo's rule
  EXPECT_EQ(spoken_abbreviation("USA"), "");
  EXPECT_EQ(spoken_abbreviation("U.s.A."), "");
  EXPECT_EQ(spoken_abbreviation("U..S.A"), "");
}

TEST(SpokenAbbreviations, WhatItLeaves) {
  for (const char* token : {"Dr", "dr.", "Sr.", "St.", "~", "/", "and", "", "DNA", "Mister"}) {
    EXPECT_EQ(spoken_abbreviation(token), "") << token;
  }
}

}  // namespace
}  // namespace winnow::testing
