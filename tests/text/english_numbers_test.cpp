// cardinal_words, ordinal_words and year_words against num2words (english_numbers_reference.py,
// Debian's python3-num2words, in NeMo's convention: no "and", no hyphens or commas) on random
// numbers of awkward sizes (0 to 1100, 10^k and 10^k ± 1 up to 10^24 - 1, random digits with
// zero groups) and on every year from 1000 to 2999; NeMo's one "and" on the cases of its own test
// data (tests/nemo_text_processing/en/data_text_normalization, written out by hand here).
#include "text/english_numbers.h"

#include <gtest/gtest.h>

#include <random>

#include "test_support.h"
#include "text/num2words_reference.h"

namespace winnow::testing {
namespace {

// Numbers as digit strings: 0, 10^k - 1, 10^k, 10^k + 1 for every length up to the limit, and
// random ones of every length, some with whole groups of zeros.
std::vector<std::string> awkward_numbers(size_t random_count) {
  std::vector<std::string> out;
  for (int i = 0; i <= 1100; ++i) out.push_back(std::to_string(i));  // every small word
  for (size_t k = 1; k < kMaxCardinalDigits; ++k) {
    out.push_back(std::string(k, '9'));
    out.push_back("1" + std::string(k, '0'));
    out.push_back("1" + std::string(k - 1, '0') + "1");
  }
  out.push_back(std::string(kMaxCardinalDigits, '9'));
  std::mt19937_64 rng(39);
  for (size_t i = 0; i < random_count; ++i) {
    const size_t length = 1 + rng() % kMaxCardinalDigits;
    std::string digits(1, char('1' + rng() % 9));
    while (digits.size() < length) {
      // A third of the digits start a run of zeros, so whole groups come out empty.
      if (rng() % 3 == 0)
        digits += std::string(std::min<size_t>(1 + rng() % 6, length - digits.size()), '0');
      else
        digits += char('0' + rng() % 10);
    }
    out.push_back(digits);
  }
  return out;
}

std::string without_and(std::string_view words) {
  std::string out;
  size_t start = 0;
  while (start <= words.size()) {
    size_t end = words.find(' ', start);
    if (end == std::string_view::npos) end = words.size();
    const std::string_view w = words.substr(start, end - start);
    if (w != "and") out += (out.empty() ? "" : " ") + std::string(w);
    start = end + 1;
  }
  return out;
}

TEST(EnglishNumbers, CardinalsAndOrdinalsMatchNum2words) {
  const std::vector<std::string> numbers = awkward_numbers(400);
  std::vector<Num2WordsQuery> queries;
  for (const std::string& n : numbers) queries.push_back({"cardinal", n});
  for (const std::string& n : numbers) queries.push_back({"ordinal", n});
  const std::vector<std::string> expected = num2words(queries);
  ASSERT_EQ(expected.size(), 2 * numbers.size());
  for (size_t i = 0; i < numbers.size(); ++i) {
    EXPECT_EQ(cardinal_words(numbers[i]), expected[i]) << numbers[i];
    EXPECT_EQ(ordinal_words(numbers[i]), expected[numbers.size() + i]) << numbers[i];
    // The "and" form is the same words with at most one "and" among them.
    const std::string with = cardinal_words_with_and(numbers[i]);
    EXPECT_EQ(without_and(with), expected[i]) << numbers[i];
    EXPECT_LE(with.size(), expected[i].size() + 4) << numbers[i];
  }
}

TEST(EnglishNumbers, YearsMatchNum2words) {
  std::vector<Num2WordsQuery> queries;
  for (int y = 1000; y <= 2999; ++y) queries.push_back({"year", std::to_string(y)});
  const std::vector<std::string> expected = num2words(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (size_t i = 0; i < queries.size(); ++i)
    EXPECT_EQ(year_words(queries[i].value), expected[i]) << queries[i].value;
}

// NeMo's test data and grammar (taggers/date.py: the four-digit year graph with "s").
TEST(EnglishNumbers, DecadesAsNemoReadsThem) {
  EXPECT_EQ(year_words("1980", true), "nineteen eighties");
  EXPECT_EQ(year_words("1910", true), "nineteen tens");
  EXPECT_EQ(year_words("2000", true), "two thousands");
  EXPECT_EQ(year_words("1900", true), "nineteen hundreds");
  EXPECT_EQ(year_words("2020", true), "");  // none in NeMo's grammar
  EXPECT_EQ(year_words("3000"), "");
  EXPECT_EQ(year_words("199"), "");
}

// Expected values from NeMo's test_cases_cardinal.txt and test_cases_money.txt (the numbers'
// words), and its add_optional_and rule where the data has no case.
TEST(EnglishNumbers, TheOneAndWhereNemoPutsIt) {
  EXPECT_EQ(cardinal_words_with_and("123"), "one hundred and twenty three");
  EXPECT_EQ(cardinal_words_with_and("100"), "one hundred");
  EXPECT_EQ(cardinal_words_with_and("13000"), "thirteen thousand");
  EXPECT_EQ(cardinal_words_with_and("123000"), "one hundred twenty three thousand");
  EXPECT_EQ(cardinal_words_with_and("123123000"),
            "one hundred twenty three million one hundred twenty three thousand");
  EXPECT_EQ(cardinal_words_with_and("123000012"), "one hundred twenty three million twelve");
  EXPECT_EQ(cardinal_words_with_and("18081"), "eighteen thousand and eighty one");
  EXPECT_EQ(cardinal_words_with_and("18854"), "eighteen thousand eight hundred and fifty four");
  EXPECT_EQ(cardinal_words_with_and("1925"), "one thousand nine hundred and twenty five");
  EXPECT_EQ(cardinal_words_with_and("124444234854823834553"),
            "one hundred twenty four quintillion four hundred forty four quadrillion two hundred "
            "thirty four trillion eight hundred fifty four billion eight hundred twenty three "
            "million eight hundred thirty four thousand five hundred and fifty three");
  // Its rule read literally: "billion" is no "thousand" or "million".
  EXPECT_EQ(cardinal_words_with_and("100000000000"), "one hundred and billion");
  EXPECT_EQ(cardinal_words_with_and("1000005"), "one million five");
}

TEST(EnglishNumbers, DigitsAndWhatIsNoNumber) {
  EXPECT_EQ(digit_words("004"), "zero zero four");
  EXPECT_EQ(cardinal_words("004"), "");
  EXPECT_EQ(cardinal_words(""), "");
  EXPECT_EQ(cardinal_words("12a"), "");
  EXPECT_EQ(cardinal_words(std::string(kMaxCardinalDigits + 1, '1')), "");
  EXPECT_EQ(ordinal_words("0"), "zeroth");
  EXPECT_EQ(ordinal_words("20"), "twentieth");
}

}  // namespace
}  // namespace winnow::testing
