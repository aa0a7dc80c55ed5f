// spoken_english: NeMo's English text normaliser's readings on the cases of NeMo's own test data
// (tests/nemo_text_processing/en/data_text_normalization/test_cases_{cardinal,ordinal,decimal,
// money,time,date}.txt, written out by hand here), sentences around them, what stays as written,
// and numbers in sentences against num2words (english_numbers_reference.py): random comma-
// grouped cardinals, ordinals as num2words writes them ("21st") and every year 1000-2999.
#include "text/spoken_english.h"

#include <gtest/gtest.h>

#include <random>

#include "test_support.h"
#include "text/num2words_reference.h"

namespace winnow::testing {
namespace {

struct Case {
  const char* written;
  const char* spoken;
};

void expect_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) EXPECT_EQ(spoken_english(c.written), c.spoken) << c.written;
}

TEST(SpokenEnglish, CardinalsAsNemosTestData) {
  expect_cases({
      {"1", "one"},
      {"-2", "minus two"},
      {"123", "one hundred and twenty three"},
      {"13,000", "thirteen thousand"},
      {"13000", "one three zero zero zero"},
      {"9000", "nine thousand"},
      {"9,000", "nine thousand"},
      {"123,000", "one hundred twenty three thousand"},
      {"123000", "one two three zero zero zero"},
      {"123,123,000", "one hundred twenty three million one hundred twenty three thousand"},
      {"123,000,012", "one hundred twenty three million twelve"},
      {"1,000,000", "one million"},
      {"1234567890123124",
       "one two three four five six seven eight nine zero one two three one two four"},
      {"004", "zero zero four"},
      {"0", "zero"},
      {"-12,345", "minus twelve thousand three hundred and forty five"},
  });
}

TEST(SpokenEnglish, OrdinalsAsNemosTestData) {
  expect_cases({
      {"0th", "zeroth"},
      {"11th", "eleventh"},
      {"23rd", "twenty third"},
      {"1000th", "one thousandth"},
      {"1,000th", "one thousandth"},
      {"1000000th", "one millionth"},
      {"9,000,000th", "nine millionth"},
      {"1st", "first"},
      {"2nd", "second"},
      {"3rd", "third"},
      {"4th", "fourth"},
      {"12th", "twelfth"},
      {"13th", "thirteenth"},
      {"20th", "twentieth"},
      {"21st", "twenty first"},
      {"121st", "one hundred twenty first"},
      {"111th", "one hundred eleventh"},
      {"100th", "one hundredth"},
      {"2ND", "second"},
      // A wrong suffix: NeMo says "twenty one th"; left as written here.
      {"21th", "21th"},
  });
}

TEST(SpokenEnglish, DecimalsAndPercentAsNemoReadsThem) {
  expect_cases({
      {".1665", "point one six six five"},
      {"2.0", "two point zero"},
      {"2.00", "two point zero zero"},
      {"2.050", "two point zero five zero"},
      {"100 million", "one hundred million"},
      {"123 million people", "one hundred twenty three million people"},
      {"0.1 billion", "zero point one billion"},
      {"-0.1", "minus zero point one"},
      {"0.004", "zero point zero zero four"},
      {"3.14", "three point one four"},
      {"1,234.5", "one thousand two hundred and thirty four point five"},
      {"50%", "fifty percent"},
      {"1%", "one percent"},
      {"3.5 %", "three point five percent"},
      {"-5%", "minus five percent"},
      {"150%", "one hundred and fifty percent"},
  });
}

TEST(SpokenEnglish, MoneyAsNemosTestData) {
  expect_cases({
      {"$2", "two dollars"},
      {"$2.00", "two dollars"},
      {"\u20a9460 billion", "four hundred sixty billion won"},
      {"\u00a530 billion", "thirty billion yen"},
      {"\u00a530b", "thirty billion yen"},
      {"\u00a530B", "thirty billion yen"},
      {"$45 billion", "forty five billion dollars"},
      {"$0.2 million", "zero point two million dollars"},
      {"$2.5 million", "two point five million dollars"},
      {"$15.2 billion", "fifteen point two billion dollars"},
      {"$15000", "fifteen thousand dollars"},
      {"$1", "one dollar"},
      {"$1.00", "one dollar"},
      {"$2.000", "two dollars"},
      {"$20", "twenty dollars"},
      {"$20.506", "twenty point five zero six dollars"},
      {"$20.50", "twenty dollars fifty cents"},
      {"$20.500", "twenty dollars fifty cents"},
      {"$20.5", "twenty dollars fifty cents"},
      {"$20.01", "twenty dollars one cent"},
      {"$20.010", "twenty dollars one cent"},
      {"$0.010", "one cent"},
      {"$0.02", "two cents"},
      {"$0.20", "twenty cents"},
      {"$.01", "one cent"},
      {"$.506", "point five zero six dollars"},
      {"$18925000", "eighteen million nine hundred twenty five thousand dollars"},
      {"$18,925,000", "eighteen million nine hundred twenty five thousand dollars"},
      {"$18854", "eighteen thousand eight hundred and fifty four dollars"},
      {"$18801", "eighteen thousand eight hundred and one dollars"},
      {"$18081", "eighteen thousand and eighty one dollars"},
      {"\u00a318000", "eighteen thousand pounds"},
      {"\u00a31.20", "one pound twenty pence"},
      {"\u00a31.111", "one point one one one pounds"},
      {"\u00a32.01", "two pounds one penny"},
      {"$1,925.21", "one thousand nine hundred and twenty five dollars twenty one cents"},
      {"$1,234.123", "one thousand two hundred and thirty four point one two three dollars"},
      {"US $76.3 trillion", "US seventy six point three trillion dollars"},
      {"The price for each canned salmon is $5 , each bottle of peanut butter is $3",
       "The price for each canned salmon is five dollars , each bottle of peanut butter is three "
       "dollars"},
      {"\u20ac5.50", "five euros fifty cents"},
      {"$5.50", "five dollars fifty cents"},
  });
}

TEST(SpokenEnglish, TimesAsNemosTestData) {
  expect_cases({
      {"01:00", "one o'clock"},
      {"01:00 am", "one AM"},
      {"01:00 a.m.", "one AM."},  // NeMo keeps the dot too, or not: its grammar has both
      {"1 a.m", "one AM"},
      {"23:00", "twenty three o'clock"},
      {"1:00a.m", "one AM"},
      {"1.59 p.m", "one fifty nine PM"},
      {"01:59 p.m", "one fifty nine PM"},
      {"10:30", "ten thirty"},
      {"10:05", "ten o five"},
      {"1:01:01", "one hour one minute and one second"},
      {"14:10:30", "fourteen hours ten minutes and thirty seconds"},
      {"10:00:00 pm", "ten hours zero minutes and zero seconds PM"},
      {"5pm", "five PM"},
      {"5 pm", "five PM"},
      {"21:51:31", "twenty one hours fifty one minutes and thirty one seconds"},
      {"01:01:01", "one hour one minute and one second"},
      {"25:00", "25:00"},
      {"3:2", "3:2"},
  });
}

TEST(SpokenEnglish, YearsAsNemosTestData) {
  expect_cases({
      {"2012", "twenty twelve"},
      {"1994", "nineteen ninety four"},
      {"1155", "eleven fifty five"},
      {"1000", "one thousand"},
      {"in 2021", "in twenty twenty one"},
      {"1980s", "nineteen eighties"},
      {"1910s", "nineteen tens"},
      {"2000s", "two thousands"},
      {"'80s", "eighties"},  // the apostrophe is part of the decade
      {"the '90s.", "the nineties."},
      {"born 1905.", "born nineteen oh five."},
      {"3000", "three thousand"},
      {"-1995", "minus one thousand nine hundred and ninety five"},
  });
}

TEST(SpokenEnglish, SentencesKeepTheirWordsAndPunctuation) {
  expect_cases({
      {"I have 3 cats.", "I have three cats."},
      {"  I   have\t3\ncats ", "I have three cats"},
      {"5\x1fpm\v2nd", "five PM second"},
      {"(5) items, 2nd row; 50%!", "(five) items, second row; fifty percent!"},
      {"\u201c42\u201d", "\u201cforty two\u201d"},
      {"no numbers here", "no numbers here"},
      {"", ""},
      // Not read (see spoken_english.h): units, month names, fractions, serials, codes.
      {"5kg B2 mp3 1/2 jan. $20/mo 1,00 1.2.3 2-x", "5kg B2 mp3 1/2 jan. $20/mo 1,00 1.2.3 2-x"},
      // A quantity joins its number only with nothing between them.
      {"123, million", "one hundred and twenty three, million"},
      {"$5 thousand", "five dollars thousand"},
  });
}

// NeMo's test_cases_whitelist.txt and test_cases_word.txt.
TEST(SpokenEnglish, WhitelistAndWordsAsNemosTestData) {
  expect_cases({
      {"Dr. Evil", "doctor Evil"},
      {"Mrs. Norris", "misses Norris"},
      {"DNA is", "DNA is"},
      {"and/or", "and/or"},
      {"$ and 5% or %", "dollar and five percent or percent"},
      {"i saw (22) ducklings", "i saw (twenty two) ducklings"},
      {"love him while we may,", "love him while we may,"},
      {"mother-in-law", "mother-in-law"},
      {"!1", "!one"},  // NeMo: "! one"; the cleaning makes them the same
      {"See e.g., U.S.A. & co etc.)", "See for example, USA and co etcetera.)"},
      {"at 5 a.m. or 6 p.m", "at five AM. or six PM"},
  });
}

// NeMo's test_cases_date.txt, dates with month names.
TEST(SpokenEnglish, DatesWithMonthNamesAsNemosTestData) {
  expect_cases({
      {"july 25 2012", "july twenty fifth twenty twelve"},
      {"jul 25 2012", "july twenty fifth twenty twelve"},
      {"25 july 2012", "the twenty fifth of july twenty twelve"},
      {"25 jul 2012", "the twenty fifth of july twenty twelve"},
      {"22 july 2012", "the twenty second of july twenty twelve"},
      {"25th july 2012", "the twenty fifth of july twenty twelve"},
      {"22nd july 2012", "the twenty second of july twenty twelve"},
      {"15 january", "the fifteenth of january"},
      {"17 may 2010", "the seventeenth of may twenty ten"},
      {"january 1", "january first"},
      {"june 30", "june thirtieth"},
      {"july 1506", "july fifteen oh six"},
      {"june 20 2014", "june twentieth twenty fourteen"},
      {"august 23 2002", "august twenty third two thousand two"},
      {"16 July 1943", "the sixteenth of july nineteen forty three"},
      {"25 sept.", "the twenty fifth of september."},  // NeMo drops the dot; cleaning does
      {"SEPT. 15", "september fifteenth"},
      {"JAN. 15 2020", "january fifteenth twenty twenty"},
      {"Jan. 15 2020", "january fifteenth twenty twenty"},
      {"jan. 15", "january fifteenth"},
      {"SEPTEMBER 15 twenty twenty", "september fifteenth twenty twenty"},
      {"One should go to the store on the 26th May in the evening",
       "One should go to the store on the twenty sixth of may in the evening"},
      {"On July 4, 1776.", "On july fourth seventeen seventy six."},
      {"(March 3rd)", "(march third)"},
      {"On the mar.", "On the mar."},
      {"May I come in?", "May I come in?"},
      {"jULY 4", "jULY four"},  // not a casing NeMo's grammar takes
      {"july 32", "july thirty two"},
  });
}

// NeMo's test_cases_telephone.txt, test_cases_date.txt (numeric dates) and
// test_cases_range.txt, and hyphenated numbers as its tokenizer splits them.
TEST(SpokenEnglish, TelephonesDatesAndRangesAsNemosTestData) {
  expect_cases({
      {"123-123-5678", "one two three, one two three, five six seven eight"},
      {"+1-123-123-5678", "plus one, one two three, one two three, five six seven eight"},
      {"123-123-5678-1111", "one two three, one two three, five six seven eight, one one one one"},
      {"123-123-5678-1", "one two three, one two three, five six seven eight, one"},
      {"call me at 123-123-5678", "call me at one two three, one two three, five six seven eight"},
      {"1-800-555-1234", "one, eight hundred, five five five, one two three four"},
      {"555.555.5555", "five five five, five five five, five five five five"},
      {"111-11-1111", "one one one, one one, one one one one"},
      {"123.123.0.40", "one two three dot one two three dot zero dot four zero"},
      {"2006-08-05", "august fifth two thousand six"},
      {"2016-11-03", "november third twenty sixteen"},
      {"2016/07/03", "july third twenty sixteen"},
      {"01.10.2010", "january tenth twenty ten"},
      {"10/06/2005", "october sixth two thousand five"},
      {"11/17/05", "november seventeenth zero five"},
      {"01/07/98", "january seventh ninety eight"},
      {"15-01-2020", "the fifteenth of january twenty twenty"},
      {"1980-1986", "nineteen eighty to nineteen eighty six"},
      {"1960s-80s", "nineteen sixties to eighties"},
      {"1960s-1980s", "nineteen sixties to nineteen eighties"},
      {"1960-80", "nineteen sixty to eighty"},
      {"$250-$300", "two hundred and fifty dollars to three hundred dollars"},
      {"$150.25-$250.67",
       "one hundred and fifty dollars twenty five cents to two hundred and fifty dollars sixty "
       "seven cents"},
      {"$50.00-$100.00", "fifty dollars to one hundred dollars"},
      {"2-5", "two - five"},
      {"from 2-10", "from two - ten"},
      {"978-0", "nine hundred and seventy eight - zero"},
      {"1-8090", "one - eight thousand and ninety"},
      {"10:30-11:45", "ten thirty to eleven forty five"},
      {"13-45-2020", "thirteen - forty five - twenty twenty"},  // no month 45: numbers
  });
}

std::string grouped(const std::string& digits) {
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string without_and(const std::string& words) {
  std::string out;
  for (size_t start = 0; start <= words.size();) {
    size_t end = words.find(' ', start);
    if (end == std::string::npos) end = words.size();
    const std::string w = words.substr(start, end - start);
    if (w != "and") out += (out.empty() ? "" : " ") + w;
    start = end + 1;
  }
  return out;
}

TEST(SpokenEnglish, NumbersInSentencesMatchNum2words) {
  std::mt19937_64 rng(3939);
  std::vector<std::string> numbers = {"0",
                                      "7",
                                      "1000",
                                      "1001",
                                      "999999",
                                      "1000000",
                                      "1000001",
                                      "999999999999999",
                                      "1000000000000000",
                                      "1000000000000001"};
  for (int i = 0; i < 300; ++i) {
    const size_t length = 1 + rng() % 16;  // up to 10^16 - 1
    std::string digits(1, char('1' + rng() % 9));
    while (digits.size() < length) digits += rng() % 3 ? char('0' + rng() % 10) : '0';
    numbers.push_back(digits);
  }
  std::vector<Num2WordsQuery> queries;
  for (const std::string& n : numbers) queries.push_back({"cardinal", n});
  for (const std::string& n : numbers) queries.push_back({"ordinal", n});
  for (const std::string& n : numbers) queries.push_back({"ordinal_num", n});
  for (int y = 1000; y <= 2999; ++y) queries.push_back({"year", std::to_string(y)});
  const std::vector<std::string> expected = num2words(queries);
  ASSERT_EQ(expected.size(), queries.size());
  const size_t n = numbers.size();
  for (size_t i = 0; i < n; ++i) {
    // Grouped with commas, so NeMo reads it as a number whatever its length (not a year).
    const std::string written = grouped(numbers[i]);
    EXPECT_EQ(without_and(spoken_english("about " + written + " of them.")),
              "about " + expected[i] + " of them.")
        << written;
    EXPECT_EQ(spoken_english("the " + expected[2 * n + i] + " time"),
              "the " + expected[n + i] + " time")
        << expected[2 * n + i];
  }
  for (size_t i = 3 * n; i < queries.size(); ++i) {
    EXPECT_EQ(spoken_english("In " + queries[i].value + ", we"), "In " + expected[i] + ", we")
        << queries[i].value;
  }
}

}  // namespace
}  // namespace winnow::testing
