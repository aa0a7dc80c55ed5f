#include "text/cld2_language.h"

#include <gtest/gtest.h>

namespace winnow {
namespace {

TEST(Cld2Language, RecognisesCommonLanguages) {
  EXPECT_EQ(detect_language_cld2("The quick brown fox jumps over the lazy dog while the farmer "
                                 "watches from the porch and drinks his morning coffee.")
                .code,
            "en");
  EXPECT_EQ(detect_language_cld2("Der schnelle braune Fuchs springt über den faulen Hund, "
                                 "während der Bauer von der Veranda aus zusieht.")
                .code,
            "de");
  EXPECT_EQ(detect_language_cld2("Le renard brun rapide saute par-dessus le chien paresseux "
                                 "pendant que le fermier regarde depuis le porche.")
                .code,
            "fr");
}

TEST(Cld2Language, EmptyTextIsUnknownWithZeroScore) {
  const LanguageGuess guess = detect_language_cld2("");
  EXPECT_EQ(guess.code, "un");
  EXPECT_EQ(guess.score, 0.0f);
}

TEST(Cld2Language, InvalidUtf8ScoresTheValidPrefix) {
  std::string text =
      "Der schnelle braune Fuchs springt über den faulen Hund, während der Bauer von der "
      "Veranda aus zusieht und seinen Kaffee trinkt.";
  text += "\xff\xfe tail";
  const LanguageGuess guess = detect_language_cld2(text);
  EXPECT_EQ(guess.code, "de");
  EXPECT_GT(guess.score, 0.5f);
}

}  // namespace
}  // namespace winnow
