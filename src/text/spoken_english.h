#pragma once
// Written English made spoken for its numbers, as NeMo's text normaliser does it
// (nemo_text_processing Normalizer(input_case="cased", lang="en"), deterministic, what NeMo
// Curator's ComputeWERStage runs on hypothesis and reference before its cleaning), for the classes
// below: tokens and their punctuation here, a token's number in spoken_number.h, compounds in
// spoken_compound.h, dates in spoken_date.h, words from english_numbers.h. Written from NeMo's
// grammars (taggers and verbalizers) and checked against the cases of its test data; NeMo itself is
// not run (its pynini and OpenFst are no Debian packages).
//
// Read (each white-space token, with punctuation around it kept as written):
// - cardinals: "123" → "one hundred and twenty three", "13,000" → "thirteen thousand",
//   "-5" → "minus five"; unseparated numbers of five digits or more, and numbers with a
//   leading zero, digit by digit ("13000" → "one three zero zero zero", "007" → "zero zero
//   seven"), as NeMo does; a number of one to three digits before million, billion, ...
//   without "and" ("123 million" → "one hundred twenty three million");
// - four-digit numbers from 1000 to 2999 as years, in any context ("1995" → "nineteen ninety
//   five", "2005" → "two thousand five"), "1990s" → "nineteen nineties", "'80s" → "eighties";
// - ordinals with the right suffix ("21st" → "twenty first", "1,000th" → "one thousandth");
// - decimals: "3.14" → "three point one four", ".5" → "point five", "-0.1" → "minus zero point
//   one";
// - percent: "50%" → "fifty percent", "3.5 %" → "three point five percent";
// - money in $, £, € (with cents or pence), ¥ and ₩: "$5.50" → "five dollars fifty cents",
//   "$1" → "one dollar", "$0.05" → "five cents", "£2.01" → "two pounds one penny",
//   "$20.506" → "twenty point five zero six dollars", "$2.5 million" → "two point five million
//   dollars";
// - times: "10:30" → "ten thirty", "10:05" → "ten o five", "10:00" → "ten o'clock", "5 pm" and
//   "5pm" → "five PM", "1:59 p.m." → "one fifty nine PM", "14:10:30" → "fourteen hours ten
//   minutes and thirty seconds";
// - telephone numbers: "123-123-5678" → "one two three, one two three, five six seven eight",
//   "+1-…", "1-800-…" ("one, eight hundred, …"), "555.555.5555", extensions, social security
//   numbers (3-2-4), IP addresses ("one two three dot …");
// - dates with a month's name (spoken_date.h): "July 4, 1776" → "july fourth seventeen seventy
//   six", "25 jul 2012" → "the twenty fifth of july twenty twelve";
// - numeric dates, one separator (- / .) throughout: "10/06/2005" → "october sixth two thousand
//   five", "2016-11-03" → "november third twenty sixteen", "15-01-2020" → "the fifteenth of
//   january twenty twenty";
// - year ranges ("1980-1986" → "nineteen eighty to nineteen eighty six", "1960s-80s"), money
//   and time ranges ("$250-$300", "10:30-11:45": "to"), and other numbers joined by hyphens
//   taken apart as NeMo's tokenizer does ("2-5" → "two - five");
// - common abbreviations and lone symbols of NeMo's whitelist (spoken_abbreviations.h): "Dr." →
//   "doctor", "e.g." → "for example", "U.S.A." → "USA", "&" → "and", "%" → "percent".
// Left as written (NeMo reads them; not done here): fractions ("1/2"), measures and units ("5 kg",
// "2-5lb"), money per unit ("$20/mo") and currency codes ("US$", "nzd"), time zones, telephone
// numbers in parentheses or with letters, URLs and e-mail addresses, roman numerals, serials mixing
// letters and digits ("B2", "covid-19"), the rest of NeMo's whitelist, symbols inside a token
// ("/$€"), ordinals with a wrong suffix ("21th"), numbers joined by other punctuation ("1,00",
// "3:2"), and what spans tokens beyond a number and its unit word ("+1 123-123-5678"). White space
// runs become one space, as in NeMo's output.
#include <string>
#include <string_view>

namespace winnow {

std::string spoken_english(std::string_view text);

}  // namespace winnow
